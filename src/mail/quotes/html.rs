//! The shapes of quoted mail in HTML-only mail: the elements clients
//! wrap the old mail in.

/// What to do at an HTML element that starts quoted mail.
#[derive(Clone, Copy)]
pub enum Cut {
    /// Drop the element, with everything nested in it.
    Element,
    /// Drop the element and everything after it: clients that put the
    /// old mail last mark only where it starts.
    Rest,
}

/// One HTML shape of quoted mail.
pub struct HtmlQuote {
    /// The tag name, `""` for any.
    pub tag: &'static str,
    /// Found in the tag (lowercased, whitespace removed); `""` for any.
    pub needle: &'static str,
    pub cut: Cut,
    /// A realistic opening tag of this shape (the tests use it).
    pub example: &'static str,
}

const fn hq(tag: &'static str, needle: &'static str, cut: Cut, example: &'static str) -> HtmlQuote {
    HtmlQuote {
        tag,
        needle,
        cut,
        example,
    }
}

/// The HTML shapes of quoted mail, one row per client convention, for
/// `text::html_to_text` (mail with only an HTML part).
pub const HTML: &[HtmlQuote] = &[
    // Apple Mail and Thunderbird (`type="cite"`), Mail.ru, Yandex, Gmail.
    hq(
        "blockquote",
        "",
        Cut::Element,
        r#"<blockquote type="cite">"#,
    ),
    // Gmail: `gmail_quote` and `gmail_quote_container`, and the
    // attribution div `gmail_attr`.
    hq(
        "",
        "gmail_quote",
        Cut::Element,
        r#"<div class="gmail_quote gmail_quote_container">"#,
    ),
    hq(
        "",
        "gmail_attr",
        Cut::Element,
        r#"<div dir="ltr" class="gmail_attr">"#,
    ),
    // Thunderbird's attribution above its blockquote.
    hq(
        "",
        "moz-cite-prefix",
        Cut::Element,
        r#"<div class="moz-cite-prefix">"#,
    ),
    // Yahoo: `yahoo_quoted` and `ydp1a2b3cyahoo_quoted`.
    hq(
        "",
        "yahoo_quoted",
        Cut::Element,
        r#"<div id="ydp9f2e1yahoo_quoted_7311" class="ydp9f2e1yahoo_quoted">"#,
    ),
    // AOL.
    hq(
        "",
        "aolreplyquote",
        Cut::Element,
        r#"<div class="aolReplyQuote">"#,
    ),
    hq(
        "",
        "aol_quoted",
        Cut::Element,
        r#"<div class="aol_quoted">"#,
    ),
    hq(
        "",
        "aolmsgpart",
        Cut::Element,
        r#"<div id="AOLMsgPart_2_6c1b8e2a">"#,
    ),
    // Zoho, Proton.
    hq(
        "",
        "zmail_extra",
        Cut::Element,
        r#"<div class="zmail_extra">"#,
    ),
    hq(
        "",
        "protonmail_quote",
        Cut::Element,
        r#"<div class="protonmail_quote">"#,
    ),
    // Apple Mail's forwarded or quoted contents, Fastmail's quote.
    hq(
        "",
        "appleoriginalcontents",
        Cut::Element,
        r#"<div class="AppleOriginalContents">"#,
    ),
    hq("div", "id=\"qt\"", Cut::Element, r#"<div id="qt">"#),
    // GMX and web.de.
    hq(
        "div",
        "name=\"quote\"",
        Cut::Element,
        r#"<div name="quote" style="margin:10px 5px 5px 10px">"#,
    ),
    hq(
        "div",
        "name=\"quoted-content\"",
        Cut::Element,
        r#"<div name="quoted-content">"#,
    ),
    // Gmail's older reply layout.
    hq(
        "",
        "gmail_extra",
        Cut::Element,
        r#"<div class="gmail_extra">"#,
    ),
    // Zimbra: a rule, then the old mail.
    hq(
        "hr",
        "zwchr",
        Cut::Rest,
        r#"<hr id="zwchr" data-marker="__DIVIDER__">"#,
    ),
    // Outlook web and iOS, Outlook for Mac, Outlook's "append on send".
    hq(
        "",
        "divrplyfwdmsg",
        Cut::Rest,
        r#"<div id="divRplyFwdMsg" dir="ltr">"#,
    ),
    hq(
        "",
        "olk_src_body_section",
        Cut::Rest,
        r#"<span id="OLK_SRC_BODY_SECTION">"#,
    ),
    hq(
        "",
        "mail-editor-reference-message-container",
        Cut::Rest,
        r#"<div id="mail-editor-reference-message-container">"#,
    ),
    hq(
        "",
        "outlookmessageheader",
        Cut::Rest,
        r#"<div class="OutlookMessageHeader" lang="en-us" dir="ltr" align="left">"#,
    ),
    // Thunderbird's forward: another's mail from here on.
    hq(
        "",
        "moz-forward-container",
        Cut::Rest,
        r#"<div class="moz-forward-container">"#,
    ),
    hq(
        "",
        "appendonsend",
        Cut::Rest,
        r#"<div id="appendonsend"></div>"#,
    ),
    // Outlook desktop's header block, a box with a thin top border
    // (#E1E1E1 since 2013, #B5C4DF before), and Windows Mail's.
    hq(
        "div",
        "border-top:solid#e1e1e1",
        Cut::Rest,
        r#"<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">"#,
    ),
    hq(
        "div",
        "border-top:solid#b5c4df",
        Cut::Rest,
        r#"<div style="border:none;border-top:solid #B5C4DF 1.0pt;padding:3.0pt 0in 0in 0in">"#,
    ),
    hq(
        "div",
        "border-top-color:rgb(229,229,229)",
        Cut::Rest,
        r#"<div style="padding-top: 5px; border-top-color: rgb(229, 229, 229); border-top-width: 1px; border-top-style: solid;">"#,
    ),
];
