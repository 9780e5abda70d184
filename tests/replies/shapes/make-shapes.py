#!/usr/bin/env python3
"""Writes tests/replies/shapes/*.eml: Alice's replies to pbem's news mail in
the shapes of mail clients that cannot run here, in many languages.

    make-shapes.py ALICE.txt OUT_DIR

ALICE.txt is the text part of pbem's mail to Alice (with ALICE.eml beside
it, the whole mail), as `PBEM_REPLIES_PREPARE=DIR cargo test --test mail
replies::prepare_only` writes them (DIR.txt, DIR.eml); scripts/client-replies runs
this. The shapes -- separator lines, attribution wordings, header blocks,
HTML markup, quote prefixes -- follow what the clients write, as recorded
in public reply-parser test suites (crisp-oss/email-reply-parser,
discourse/email_reply_trimmer, github/email_reply_parser, mailgun/talon,
zapier/email-reply-parser, willdurand/EmailReplyParser); the quoted text is
always pbem's own mail: today's, or (the `*-old-*` files, with the driver
header X-Reply-Wording naming it) a mail in a wording pbem sent before its
templates changed, read from the repository's git history (a mail as an
older fixture quoted it; old templates rendered with jinja2). Each file
starts with the driver headers X-Reply-Expect and X-Reply-Note that
tests/mail/replies.rs reads and strips.
"""

import base64
import email
import html
import quopri
import sys
import textwrap
import zlib
from email import policy
from pathlib import Path

text_path = Path(sys.argv[1])
out = Path(sys.argv[2])
NEWS = text_path.read_text()
news_mail = email.message_from_bytes(
    text_path.with_suffix(".eml").read_bytes(), policy=policy.default
)
MID = news_mail["Message-ID"].strip()
# pbem's first mail in a thread has no References (only ids the
# player has seen); a client's reply then refers to it alone.
REFS = " ".join((news_mail["References"] or "").split() + [MID])
SUBJECT = news_mail["Subject"].strip()
REPLY_TO = "pbem+bz-test1.alicekey2345@example.net"
PBEM = "pbem <pbem@example.net>"
NEWS_LINES = NEWS.rstrip("\n").split("\n")
PRE = '<pre style="font-family: monospace; font-size: 13px; line-height: 1.25">'

MOVE, BOARD, CHATTER = "13-21", "board", "Thanks, thinking about it."
EXPECT = {MOVE: "move 13-21", BOARD: "board", CHATTER: "chatter"}

# --- pieces -------------------------------------------------------------


def quoted(prefix, empty=None, lines=NEWS_LINES):
    """pbem's text with every line prefixed; `empty` for blank lines."""
    e = prefix.rstrip() if empty is None else empty
    return "\n".join(prefix + l if l else e for l in lines) + "\n"


def indented(pad):
    return "\n".join(pad + l if l else "" for l in NEWS_LINES) + "\n"


def wrap(line, width=76):
    """Gmail's text part wraps a long attribution before the address."""
    return "\n".join(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False))


def pre_html(text=None):
    text = NEWS if text is None else text
    return PRE + html.escape(text, quote=False) + "</pre>"


def own_html(cmd, extra=""):
    lines = [cmd] + ([extra] if extra else [])
    return "".join(f"<div>{html.escape(l)}</div>" if l else "<div><br></div>" for l in lines)


def body_top(cmd, rest, greeting="", sig=""):
    s = (greeting + "\n\n" if greeting else "") + cmd + "\n\n"
    if sig:
        s += sig + "\n\n"
    return s + rest


def body_bottom(cmd, rest, sig=""):
    return rest + "\n" + cmd + "\n" + ("\n" + sig + "\n" if sig else "")


# --- encodings and MIME -----------------------------------------------------


def encode(text, cte):
    data = text.encode("utf-8")
    if cte == "quoted-printable":
        return quopri.encodestring(data).decode("ascii")
    if cte == "base64":
        return base64.encodebytes(data).decode("ascii")
    return text


def part(ctype, text, cte):
    return (
        f"Content-Type: {ctype}; charset=\"UTF-8\"\n"
        f"Content-Transfer-Encoding: {cte}\n\n" + encode(text, cte)
    )


def headers(date, msgid, subject, extra=()):
    h = [
        "Return-Path: <alice@example.org>",
        "From: Alice Example <alice@example.org>",
        f"To: pbem <{REPLY_TO}>",
        f"Subject: {subject}",
        f"Date: {date}",
        f"Message-ID: <{msgid}>",
        f"In-Reply-To: {MID}",
        f"References: {REFS}",
    ]
    h.extend(extra)
    h.append("MIME-Version: 1.0")
    return "\n".join(h) + "\n"


def write(name, expect, note, date, msgid, subject, text=None, html_=None,
          cte="quoted-printable", extra=(), boundary=None, html_cte=None, wording=None):
    body = headers(date, msgid, subject, extra)
    if text is not None and html_ is not None:
        b = boundary or f"----=_Part_{zlib.crc32(name.encode()):08x}"
        body += f"Content-Type: multipart/alternative; boundary=\"{b}\"\n\n"
        body += f"--{b}\n" + part("text/plain", text, cte)
        if not body.endswith("\n"):
            body += "\n"
        body += f"\n--{b}\n" + part("text/html", html_, html_cte or cte)
        if not body.endswith("\n"):
            body += "\n"
        body += f"\n--{b}--\n"
    elif text is not None:
        body += part("text/plain", text, cte)
    else:
        body += part("text/html", html_, html_cte or cte)
    if not body.endswith("\n"):
        body += "\n"
    # The name says what the reply holds: a move, `board` or chatter.
    for kind in ("board", "chatter"):
        if expect == kind and not name.endswith("-" + kind):
            name += "-" + kind
    head = f"X-Reply-Expect: {expect}\nX-Reply-Note: {note}\n"
    if wording:
        head += f"X-Reply-Wording: {wording}\n"
    (out / f"{name}.eml").write_text(head + body)


# --- Gmail ----------------------------------------------------------------

GMAIL_ATTR = {
    "en": ("On Thu, Nov 19, 2026 at 12:33\u202fPM pbem <pbem@example.net> wrote:", "Re: "),
    "de": ("Am Do., 19. Nov. 2026 um 12:33 Uhr schrieb pbem <pbem@example.net>:", "Re: "),
    "fr": ("Le jeu. 19 nov. 2026 à 12:33, pbem <pbem@example.net> a écrit :", "Re: "),
    "es": ("El jue, 19 nov 2026 a las 12:33, pbem (<pbem@example.net>) escribió:", "Re: "),
    "it": ("Il giorno gio 19 nov 2026 alle ore 12:33 pbem <pbem@example.net> ha scritto:", "Re: "),
    "pt": ("Em qui., 19 de nov. de 2026 às 12:33, pbem <pbem@example.net> escreveu:", "Re: "),
    "nl": ("Op do 19 nov 2026 om 12:33 schreef pbem <pbem@example.net>:", "Re: "),
    "sv": ("Den tors 19 nov. 2026 kl 12:33 skrev pbem <pbem@example.net>:", "Re: "),
    "da": ("Den tor. 19. nov. 2026 kl. 12.33 skrev pbem <pbem@example.net>:", "Re: "),
    "no": ("tor. 19. nov. 2026 kl. 12:33 skrev pbem <pbem@example.net>:", "Re: "),
    "fi": ("to 19.11.2026 klo 12.33 pbem (pbem@example.net) kirjoitti:", "Re: "),
    "pl": ("czw., 19 lis 2026 o 12:33 pbem <pbem@example.net> napisał(a):", "Re: "),
    # Gmail's Russian attribution has no verb at all.
    "ru": ("чт, 19 нояб. 2026 г. в 12:33, pbem <pbem@example.net>:", "Re: "),
    "uk": ("чт, 19 лист. 2026 р. о 12:33 pbem <pbem@example.net> пише:", "Re: "),
    "cs": ("čt 19. 11. 2026 v 12:33 odesílatel pbem <pbem@example.net> napsal:", "Re: "),
    "tr": ("19 Kas 2026 Per, 12:33 tarihinde pbem <pbem@example.net> şunu yazdı:", "Re: "),
    "ja": ("2026年11月19日(木) 12:33 pbem <pbem@example.net>:", "Re: "),
    "zh": ("pbem <pbem@example.net> 于2026年11月19日周四 12:33写道：", "Re: "),
}
GMAIL_CHAT = {
    "en": "Your turn soon!", "de": "Mal sehen, was du daraus machst!",
    "fr": "À toi de jouer !", "es": "¡Te toca!", "it": "Tocca a te!",
    "pt": "Sua vez!", "nl": "Jouw beurt!", "sv": "Din tur!", "da": "Din tur!",
    "no": "Din tur!", "fi": "Sinun vuorosi!", "pl": "Twój ruch!",
    "ru": "Твой ход!", "uk": "Твій хід!", "cs": "Jsi na tahu!",
    "tr": "Sıra sende!", "ja": "よろしく。", "zh": "该你了！",
}
GMAIL_CMD = {"fr": BOARD, "sv": BOARD, "cs": BOARD, "it": CHATTER, "pl": CHATTER}
n = 0


def gmail(lang, cmd, bottom=False, html_only=False, name=None):
    global n
    n += 1
    attr, re_ = GMAIL_ATTR[lang]
    chat = GMAIL_CHAT[lang] if cmd != CHATTER else ""
    quote = wrap(attr) + "\n\n" + quoted("> ") + ">\n"
    if bottom:
        text = quote + "\n" + cmd + "\n" + ("\n" + chat + "\n" if chat else "")
    else:
        text = cmd + "\n\n" + (chat + "\n\n" if chat else "") + quote
    q_html = (
        '<div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">'
        + html.escape(attr).replace("&lt;pbem@example.net&gt;",
                                     '&lt;<a href="mailto:pbem@example.net">pbem@example.net</a>&gt;')
        + '<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
        'border-left:1px solid rgb(204,204,204);padding-left:1ex"><div>'
        + pre_html() + "</div></blockquote></div>"
    )
    own = '<div dir="ltr">' + own_html(cmd, chat) + "</div>"
    h = own + "<br>" + q_html + "\n" if not bottom else q_html + own + "\n"
    shape = "html-only" if html_only else ("bottom" if bottom else "top")
    shape += {MOVE: "", BOARD: "-board", CHATTER: "-chatter"}[cmd]
    what = {MOVE: "the move", BOARD: "`board`", CHATTER: "only chatter"}[cmd]
    write(
        name or f"gmail-{lang}-{shape}", EXPECT[cmd],
        f"Gmail ({lang}) {'HTML only' if html_only else 'text+HTML'}: {what} "
        f"{'below' if bottom else 'above'} the quote, gmail_quote in the HTML, attribution `{attr}`",
        "Fri, 20 Nov 2026 09:58:12 +0100",
        f"CAJx8Wq{n:03d}kP0vNfE2mT+5v=Hq1sX9bYbQ3u7Zr4wK@mail.gmail.com",
        re_ + SUBJECT,
        None if html_only else text, h,
        cte="quoted-printable", boundary=f"000000000000f3a1b20627a4c9{n:02x}",
    )


for lang in GMAIL_ATTR:
    gmail(lang, GMAIL_CMD.get(lang, MOVE))
gmail("en", MOVE, bottom=True)
gmail("en", BOARD, bottom=True)
gmail("de", CHATTER, bottom=True)
gmail("en", MOVE, html_only=True)
gmail("ru", BOARD, bottom=True)

# --- Outlook desktop, plain text: a header block above the unquoted mail ------

OUTLOOK = {
    "en": ("From", "Sent", "To", "Subject", "Thursday, November 19, 2026 12:33 PM", "RE: "),
    "de": ("Von", "Gesendet", "An", "Betreff", "Donnerstag, 19. November 2026 12:33", "AW: "),
    "sv": ("Från", "Skickat", "Till", "Ämne", "den 19 november 2026 12:33", "SV: "),
    "es": ("De", "Enviado el", "Para", "Asunto", "jueves, 19 de noviembre de 2026 12:33", "RE: "),
    "ru": ("От", "Отправлено", "Кому", "Тема", "19 ноября 2026 г. 12:33", "RE: "),
    "fr": ("De ", "Envoyé ", "À ", "Objet ", "jeudi 19 novembre 2026 12:33", "RE : "),
    "it": ("Da", "Inviato", "A", "Oggetto", "giovedì 19 novembre 2026 12:33", "R: "),
    "nl": ("Van", "Verzonden", "Aan", "Onderwerp", "donderdag 19 november 2026 12:33", "RE: "),
}
OUTLOOK_CMD = {"sv": BOARD, "fr": CHATTER}


def outlook_block(lang, bold=False):
    f, s, t, subj, date, _ = OUTLOOK[lang]
    b = "*" if bold else ""
    return (
        f"{b}{f}:{b} pbem <pbem@example.net>\n{b}{s}:{b} {date}\n"
        f"{b}{t}:{b} Alice Example <alice@example.org>\n{b}{subj}:{b} {SUBJECT}\n\n"
    )


def outlook_html_block(lang, style):
    f, s, t, subj, date, _ = OUTLOOK[lang]
    rows = "<br>\n".join(
        f"<b>{k}:</b> {html.escape(v)}"
        for k, v in [(f, PBEM), (s, date), (t, "Alice Example <alice@example.org>"), (subj, SUBJECT)]
    )
    if style == "border":
        return (
            '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">\n'
            f'<p class="MsoNormal">{rows}<o:p></o:p></p>\n</div>\n'
        )
    return (
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" '
        f'style="font-size:11pt" color="#000000">{rows}</font>\n<div>&nbsp;</div>\n</div>\n'
    )


def msword_html(own, quote, text=None):
    return (
        '<html xmlns:o="urn:schemas-microsoft-com:office:office">\n<head>\n'
        '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n</head>\n'
        '<body lang="EN-US" link="#0563C1" vlink="#954F72">\n<div class="WordSection1">\n'
        f'<p class="MsoNormal">{html.escape(own)}<o:p></o:p></p>\n'
        '<p class="MsoNormal"><o:p>&nbsp;</o:p></p>\n' + quote
        + pre_html(text) + "\n</div>\n</body>\n</html>\n"
    )


for lang in OUTLOOK:
    cmd = OUTLOOK_CMD.get(lang, MOVE)
    n += 1
    text = body_top(cmd, outlook_block(lang) + NEWS, sig="Alice" if cmd != CHATTER else "")
    write(
        f"outlook-{lang}-header", EXPECT[cmd],
        f"Outlook desktop ({lang}), plain text: `{cmd}` above a `{OUTLOOK[lang][0].strip()}:` header block and pbem's mail unquoted",
        "Fri, 20 Nov 2026 09:58:12 +0100",
        f"AM9PR07MB71{n:04d}F2E6C0D1A4B9E3C7D5A@AM9PR07MB7123.eurprd07.prod.outlook.com",
        OUTLOOK[lang][5] + SUBJECT, text, cte="quoted-printable",
        extra=("Thread-Topic: " + SUBJECT, "Content-Language: " + lang),
    )

# Bold names: the text part Outlook makes from its HTML.
for lang, style in [("en", "border"), ("de", "border")]:
    n += 1
    text = body_top(MOVE, outlook_block(lang, bold=True) + NEWS)
    write(
        f"outlook-{lang}-bold", EXPECT[MOVE],
        f"Outlook desktop ({lang}) text+HTML: the text part's header block has bold names (`*{OUTLOOK[lang][0]}:*`), the HTML a border-top div",
        "Fri, 20 Nov 2026 09:58:12 +0100",
        f"AM9PR07MB71{n:04d}F2E6C0D1A4B9E3C7D5A@AM9PR07MB7123.eurprd07.prod.outlook.com",
        OUTLOOK[lang][5] + SUBJECT, text, msword_html(MOVE, outlook_html_block(lang, style)),
        cte="quoted-printable",
    )

# "-----Original Message-----" and its translations.
for lang, sep, cmd in [
    ("en", "-----Original Message-----", MOVE),
    ("de", "-----Ursprüngliche Nachricht-----", MOVE),
    ("es", "-----Mensaje original-----", BOARD),
    ("fr", "-----Message d'origine-----", MOVE),
]:
    n += 1
    text = body_top(cmd, sep + "\n" + outlook_block(lang) + NEWS, greeting="Hi,")
    write(
        f"outlook-{lang}-original", EXPECT[cmd],
        f"Outlook (older, {lang}) plain text: `{cmd}` above `{sep}`, a header block and pbem's mail unquoted",
        "Fri, 20 Nov 2026 09:58:12 +0100",
        f"000{n:03d}01d9c3f2$8a7b6c50$9f724cf0$@example.org",
        OUTLOOK[lang][5] + SUBJECT, text, cte="quoted-printable",
        extra=("X-Mailer: Microsoft Outlook 16.0",),
    )

# Outlook on the web: the underscore line; HTML-only with divRplyFwdMsg.
n += 1
write(
    "outlookweb-en-underscores", EXPECT[MOVE],
    "Outlook on the web, text+HTML: the move above `________________________________` and a From/Sent block, divRplyFwdMsg in the HTML",
    "Fri, 20 Nov 2026 09:58:12 +0000",
    f"DB9PR02MB{n:04d}A1B2C3D4E5F6@DB9PR02MB7123.eurprd02.prod.outlook.com", "RE: " + SUBJECT,
    body_top(MOVE, "________________________________\n"
             + outlook_block("en").replace("Thursday, November 19, 2026 12:33 PM",
                                           "Thursday, November 19, 2026 11:33 AM") + NEWS),
    msword_html(MOVE, '<hr style="display:inline-block;width:98%" tabindex="-1">\n'
                + outlook_html_block("en", "div")),
)
for lang, cmd in [("en", MOVE), ("de", BOARD)]:
    n += 1
    own = f'<div style="font-family: Aptos, sans-serif; font-size: 12pt;">{html.escape(cmd)}</div>\n'
    write(
        f"outlookweb-{lang}-html-only", EXPECT[cmd],
        f"Outlook on the web ({lang}), HTML only: `{cmd}`, then hr and divRplyFwdMsg above pbem's mail",
        "Fri, 20 Nov 2026 09:58:12 +0000",
        f"DB9PR02MB{n:04d}A1B2C3D4E5F6@DB9PR02MB7123.eurprd02.prod.outlook.com",
        OUTLOOK[lang][5] + SUBJECT, None,
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head>'
        f'<body dir="ltr">\n{own}<div id="appendonsend"></div>\n'
        '<hr style="display:inline-block;width:98%" tabindex="-1">\n'
        + outlook_html_block(lang, "div") + '<div class="BodyFragment">' + pre_html()
        + "</div>\n</body></html>\n",
    )

# Outlook for iOS / Android / Mac.
for name, note, sig, lang, cmd in [
    ("outlookios-en-top", "Outlook for iOS", "Get Outlook for iOS<https://aka.ms/o0ukef>", "en", MOVE),
    ("outlookios-fr-top", "Outlook pour iOS", "Télécharger Outlook pour iOS<https://aka.ms/o0ukef>", "fr", CHATTER),
    ("outlookandroid-en-top", "Outlook for Android", "Get Outlook for Android<https://aka.ms/AAb9ysg>", "en", BOARD),
]:
    n += 1
    block = "________________________________\n" + outlook_block(lang).replace(
        OUTLOOK[lang][4], "Thursday, November 19, 2026 12:33:05 PM" if lang == "en"
        else "jeudi 19 novembre 2026 12:33:05")
    write(
        name, EXPECT[cmd], f"{note}: `{cmd}`, the app's signature, the underscore line and a header block",
        "Fri, 20 Nov 2026 08:58:12 +0000",
        f"BY5PR{n:04d}MB1234ABCDEF@BY5PR11MB1234.namprd11.prod.outlook.com",
        OUTLOOK[lang][5] + SUBJECT, body_top(cmd, block + NEWS, sig=sig),
        cte="quoted-printable",
    )
n += 1
write(
    "outlookmac-en-top", EXPECT[MOVE],
    "Outlook for Mac, text+HTML: the move above a From/Date/To/Subject block; OLK_SRC_BODY_SECTION in the HTML",
    "Fri, 20 Nov 2026 09:58:12 +0100", f"7D3C{n:04d}-1A2B-4C5D-8E9F-0A1B2C3D4E5F@example.org",
    "Re: " + SUBJECT,
    body_top(MOVE, "From: pbem <pbem@example.net>\nDate: Thursday, 19 November 2026 at 12:33\n"
             f"To: Alice Example <alice@example.org>\nSubject: {SUBJECT}\n\n" + NEWS),
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head>'
    '<body><div><span style="font-size:11pt">13-21</span></div><div><br></div>\n'
    '<div id="OLK_SRC_BODY_SECTION"><div style="font-family:Calibri; font-size:12pt; text-align:left; '
    'color:black; BORDER-BOTTOM: medium none; BORDER-LEFT: medium none; PADDING-BOTTOM: 0in; '
    'PADDING-LEFT: 0in; PADDING-RIGHT: 0in; BORDER-TOP: #b5c4df 1pt solid; BORDER-RIGHT: medium none; '
    'PADDING-TOP: 3pt"><span style="font-weight:bold">From: </span>pbem &lt;pbem@example.net&gt;<br>'
    '<span style="font-weight:bold">Date: </span>Thursday, 19 November 2026 at 12:33<br>'
    '<span style="font-weight:bold">To: </span>Alice Example &lt;alice@example.org&gt;<br>'
    f'<span style="font-weight:bold">Subject: </span>{html.escape(SUBJECT)}<br></div><div><br></div>'
    + pre_html() + "</div></body></html>\n",
)
n += 1
write(
    "outlook-en-border-html-only", EXPECT[MOVE],
    "Outlook desktop, HTML only: the move, then the border-top div with the From/Sent block above pbem's mail",
    "Fri, 20 Nov 2026 09:58:12 +0100",
    f"AM9PR07MB71{n:04d}F2E6C0D1A4B9E3C7D5A@AM9PR07MB7123.eurprd07.prod.outlook.com",
    "RE: " + SUBJECT, None, msword_html(MOVE, outlook_html_block("en", "border")),
)

# --- Apple Mail and iPhone ------------------------------------------------------

APPLE = {
    "en": ("Sent from my iPhone", "On 19 Nov 2026, at 12:33, pbem <pbem@example.net> wrote:", MOVE),
    "de": ("Von meinem iPhone gesendet", "Am 19.11.2026 um 12:33 schrieb pbem <pbem@example.net>:", MOVE),
    "fr": ("Envoyé de mon iPhone", "Le 19 nov. 2026 à 12:33, pbem <pbem@example.net> a écrit :", BOARD),
    "es": ("Enviado desde mi iPhone", "El 19 nov 2026, a las 12:33, pbem <pbem@example.net> escribió:", MOVE),
    "it": ("Inviato da iPhone", "Il giorno 19 nov 2026, alle ore 12:33, pbem <pbem@example.net> ha scritto:", CHATTER),
    "nl": ("Verstuurd vanaf mijn iPhone", "Op 19 nov. 2026 om 12:33 heeft pbem <pbem@example.net> het volgende geschreven:", MOVE),
    "sv": ("Skickat från min iPhone", "19 nov. 2026 kl. 12:33 skrev pbem <pbem@example.net>:", MOVE),
    "ru": ("Отправлено с iPhone", "19 нояб. 2026 г., в 12:33, pbem <pbem@example.net> написал(а):", MOVE),
}


def apple_html(own_first, cmd, attr, sig=""):
    q = (
        f'<div dir="ltr"><br><blockquote type="cite">{html.escape(attr)}<br><br></blockquote></div>'
        f'<blockquote type="cite"><div dir="ltr">{pre_html()}</div></blockquote>'
    )
    own = f'<div dir="ltr">{html.escape(cmd)}</div>' + (
        f'<div dir="ltr"><br></div><div dir="ltr">{html.escape(sig)}</div>' if sig else "")
    return ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
            '<body dir="auto">' + (own + q if own_first else q + own) + "</body></html>\n")


for lang, (sig, attr, cmd) in APPLE.items():
    n += 1
    text = cmd + "\n\n" + sig + "\n\n" + "> " + attr + "\n> \n" + quoted("> ", "> ")
    write(
        f"iphone-{lang}-top", EXPECT[cmd],
        f"iPhone Mail ({lang}), text+HTML: `{cmd}`, `{sig}`, then the quoted attribution and pbem's mail (`> `); blockquote type=cite",
        "Fri, 20 Nov 2026 09:58:12 +0100", f"{n:04d}E1F2-3A4B-4C5D-9E8F-7A6B5C4D3E2F@example.org",
        "Re: " + SUBJECT, text, apple_html(True, cmd, attr, sig),
        cte="quoted-printable", boundary=f"Apple-Mail-{n:04d}-1A2B3C4D",
        extra=("X-Mailer: iPhone Mail (22B91)",),
    )
n += 1
attr = APPLE["en"][1]
write(
    "applemail-en-bottom", EXPECT[MOVE],
    "Apple Mail (macOS), text+HTML, bottom-posted: the quoted attribution, pbem's mail (`> `), then the move",
    "Fri, 20 Nov 2026 09:58:12 +0100", f"{n:04d}A1B2-3C4D-4E5F-8A9B-0C1D2E3F4A5B@example.org",
    "Re: " + SUBJECT, "\n\n> " + attr + "\n> \n" + quoted("> ", "> ") + "\n" + MOVE + "\n",
    apple_html(False, MOVE, attr), cte="quoted-printable",
    boundary=f"Apple-Mail=_{n:04d}ABCD", extra=("X-Mailer: Apple Mail (2.3826.200.121)",),
)
n += 1
attr = APPLE["sv"][1]
write(
    "applemail-sv-html-only", EXPECT[MOVE],
    "Apple Mail (sv), HTML only: the move above blockquote type=cite",
    "Fri, 20 Nov 2026 09:58:12 +0100", f"{n:04d}A1B2-3C4D-4E5F-8A9B-0C1D2E3F4A5B@example.org",
    "Re: " + SUBJECT, None, apple_html(True, MOVE, attr),
)

# --- Thunderbird ------------------------------------------------------------------

TB = [
    ("en", "On 19/11/2026 12:33, pbem wrote:", MOVE, True),
    ("en", "On 19/11/2026 12:33, pbem wrote:", BOARD, False),
    ("en", "On 19/11/2026 12:33, pbem wrote:", CHATTER, True),
    ("sv", "Den 2026-11-19 kl. 12:33, skrev pbem:", MOVE, False),
    ("da", "Den 19-11-2026 kl. 12:33 skrev pbem:", MOVE, True),
    ("de", "Am 19.11.26 um 12:33 schrieb pbem:", BOARD, True),
    ("it", "Il 19/11/2026 12:33, pbem ha scritto:", MOVE, False),
    ("pt", "Em 19/11/2026 12:33, pbem escreveu:", MOVE, True),
    ("fi", "pbem kirjoitti 19.11.2026 klo 12.33:", CHATTER, False),
    ("nb", "Den 19.11.2026 12:33, skrev pbem:", MOVE, False),
]
for lang, attr, cmd, bottom in TB:
    n += 1
    q = attr + "\n" + quoted("> ", ">")
    text = body_bottom(cmd, q) if bottom else body_top(cmd, q)
    kind = {MOVE: "", BOARD: "-board", CHATTER: "-chatter"}[cmd]
    write(
        f"thunderbird-{lang}-{'bottom' if bottom else 'top'}{kind}", EXPECT[cmd],
        f"Thunderbird ({lang}), plain text: `{cmd}` {'below' if bottom else 'above'} `{attr}` and pbem's mail (`> `)",
        "Fri, 20 Nov 2026 09:58:12 +0100", f"{n:04d}b2c3-d4e5-4f60-8a1b-2c3d4e5f6a7b@example.org",
        "Re: " + SUBJECT, text, cte="7bit" if text.isascii() else "8bit",
        extra=("User-Agent: Mozilla Thunderbird", "Content-Language: " + lang),
    )
for lang, attr in [("de", "Am 19.11.26 um 12:33 schrieb pbem:"), ("en", "On 19/11/2026 12:33, pbem wrote:")]:
    n += 1
    write(
        f"thunderbird-{lang}-html-only", EXPECT[MOVE],
        f"Thunderbird ({lang}), HTML only: the move above moz-cite-prefix and blockquote type=cite",
        "Fri, 20 Nov 2026 09:58:12 +0100", f"{n:04d}b2c3-d4e5-4f60-8a1b-2c3d4e5f6a7b@example.org",
        "Re: " + SUBJECT, None,
        '<!DOCTYPE html>\n<html>\n  <head>\n    <meta http-equiv="Content-Type" content="text/html; charset=UTF-8">\n  </head>\n'
        f'  <body>\n    <p>{MOVE}</p>\n    <div class="moz-cite-prefix">{html.escape(attr)}<br>\n    </div>\n'
        f'    <blockquote type="cite" cite="mid:{MID.strip("<>")}">\n      ' + pre_html()
        + "\n    </blockquote>\n  </body>\n</html>\n",
        extra=("User-Agent: Mozilla Thunderbird",),
    )

# --- webmails and phones ----------------------------------------------------------


def simple(name, expect_cmd, note, text, subject="Re: ", extra=(), cte=None, html_=None):
    global n
    n += 1
    write(name, EXPECT[expect_cmd], note, "Fri, 20 Nov 2026 09:58:12 +0100",
          f"{name}.{n}@example.org", subject + SUBJECT, text, html_,
          cte=cte or ("7bit" if text.isascii() else "8bit"), extra=extra)


simple("yahoo-en-top", MOVE,
       "Yahoo Mail: the move above ` On Thursday, ... wrote:` and pbem's mail indented by one space, no `>`",
       body_top(MOVE, " On Thursday, November 19, 2026 at 12:33:00 PM GMT+1, pbem <pbem@example.net> wrote:  \n \n \n"
                + indented(" ")),
       html_=f'<html><body><div class="ydp1a2b3c4dyahoo-style-wrap"><div>{MOVE}</div></div>'
       '<div id="ydp1a2b3c4dyahoo_quoted_1234" class="ydp1a2b3c4dyahoo_quoted"><div>'
       'On Thursday, November 19, 2026 at 12:33:00 PM GMT+1, pbem &lt;pbem@example.net&gt; wrote:</div>'
       f'<div><br></div><div><br></div><div><div dir="ltr">{pre_html()}</div></div></div></body></html>\n',
       cte="quoted-printable")
simple("yahoo-fr-top", BOARD,
       "Yahoo Mail (fr): `board` above ` Le jeudi ... a écrit :` and pbem's mail indented by one space",
       body_top(BOARD, " Le jeudi 19 novembre 2026 à 12:33:00 UTC+1, pbem <pbem@example.net> a écrit :  \n \n \n"
                + indented(" ")))
simple("aol-en-top", MOVE,
       "AOL Mail: the move above `-----Original Message-----` with From/To/Sent/Subject and pbem's mail unquoted",
       body_top(MOVE, "-----Original Message-----\nFrom: pbem <pbem@example.net>\nTo: alice <alice@example.org>\n"
                f"Sent: Thu, Nov 19, 2026 12:33 pm\nSubject: {SUBJECT}\n\n" + NEWS))
simple("zimbra-en-top", MOVE,
       "Zimbra: the move above `----- Original Message -----` and pbem's mail unquoted",
       body_top(MOVE, "----- Original Message -----\nFrom: \"pbem\" <pbem@example.net>\n"
                "To: \"Alice Example\" <alice@example.org>\nSent: Thursday, November 19, 2026 12:33:00 PM\n"
                f"Subject: {SUBJECT}\n\n" + NEWS, sig="Alice"),
       extra=("X-Mailer: Zimbra 10.0.6_GA_4641 (ZimbraWebClient - FF120 (Linux)/10.0.6_GA_4641)",))
simple("zimbra-de-top", CHATTER,
       "Zimbra (de): only chatter above `----- Ursprüngliche Mail -----` and pbem's mail unquoted",
       body_top(CHATTER, "----- Ursprüngliche Mail -----\nVon: \"pbem\" <pbem@example.net>\n"
                "An: \"Alice Example\" <alice@example.org>\nGesendet: Donnerstag, 19. November 2026 12:33:00\n"
                f"Betreff: {SUBJECT}\n\n" + NEWS))
simple("zoho-en-top", MOVE,
       "Zoho Mail: the move above `---- On ... wrote ----` and pbem's mail unquoted",
       body_top(MOVE, "---- On Thu, 19 Nov 2026 12:33:00 +0100 pbem <pbem@example.net> wrote ----\n\n" + NEWS))
simple("samsung-en-top", MOVE,
       "Samsung Email: the move, `Sent from my Galaxy`, `-------- Original message --------` and a header block",
       body_top(MOVE, "\n\n-------- Original message --------\nFrom: pbem <pbem@example.net> \n"
                "Date: 19/11/2026 12:33 (GMT+01:00) \nTo: Alice Example <alice@example.org> \n"
                f"Subject: {SUBJECT} \n\n" + NEWS, sig="Sent from my Galaxy"))
simple("samsung-fr-top", MOVE,
       "Samsung Email (fr): the move above `-------- Message d'origine --------` and `De :`",
       body_top(MOVE, "\n\n-------- Message d'origine --------\nDe : pbem <pbem@example.net> \n"
                "Date : 19/11/2026 12:33 (GMT+01:00) \nÀ : Alice Example <alice@example.org> \n"
                f"Objet : {SUBJECT} \n\n" + NEWS, sig="Envoyé depuis mon appareil Galaxy"))
simple("samsung-da-top", BOARD,
       "Samsung Email (da): `board` above `-------- Oprindelig besked --------` and Fra/Dato/Til/Emne",
       body_top(BOARD, "\n\n-------- Oprindelig besked --------\nFra: pbem <pbem@example.net> \n"
                "Dato: 19.11.2026  12.33  (GMT+01:00) \nTil: Alice Example <alice@example.org> \n"
                f"Emne: {SUBJECT} \n\n" + NEWS))
simple("k9-en-top", MOVE,
       "K-9 Mail: the move above `On ..., pbem <...> wrote:` and pbem's mail quoted with `>` (no space)",
       body_top(MOVE, "On November 19, 2026 12:33:00 PM GMT+01:00, pbem <pbem@example.net> wrote:\n"
                + quoted(">"), sig="-- \nSent from my Android device with K-9 Mail. Please excuse my brevity."))
simple("k9-de-bottom", MOVE,
       "K-9 Mail (de), bottom-posted: `Am ... schrieb pbem <...>:`, pbem's mail (`>`), the move below",
       body_bottom(MOVE, "Am 19. November 2026 12:33:00 MEZ schrieb pbem <pbem@example.net>:\n" + quoted(">")))
simple("windowsmail-en-top", MOVE,
       "Windows 10 Mail: the move, `Sent from Mail for Windows`, a From/Sent/To/Subject block, pbem's mail unquoted",
       body_top(MOVE, "From: pbem\nSent: Thursday, 19 November 2026 12:33\nTo: Alice Example\n"
                f"Subject: {SUBJECT}\n\n" + NEWS, sig="Sent from Mail<https://go.microsoft.com/fwlink/?LinkId=550986> for Windows"))
simple("roundcube-en-bottom", MOVE,
       "Roundcube, bottom-posted: `On 2026-11-19 12:33, pbem wrote:`, pbem's mail (`> `), the move",
       body_bottom(MOVE, "On 2026-11-19 12:33, pbem wrote:\n" + quoted("> ")),
       extra=("User-Agent: Roundcube Webmail/1.6.9",))
simple("roundcube-de-top", BOARD,
       "Roundcube (de), top-posted: `board` above `Am 2026-11-19 12:33, schrieb pbem:` and pbem's mail (`> `)",
       body_top(BOARD, "Am 2026-11-19 12:33, schrieb pbem:\n" + quoted("> ")),
       extra=("User-Agent: Roundcube Webmail/1.6.9",))
simple("openxchange-en-top", MOVE,
       "Open-Xchange: the move above the quoted attribution `> On ... wrote:` and pbem's mail (`> `)",
       body_top(MOVE, "> On November 19, 2026 at 12:33 PM pbem <pbem@example.net> wrote:\n> \n> \n"
                + quoted("> ", "> ")),
       extra=("X-Mailer: Open-Xchange Mailer v7.10.6-Rev64",))
simple("mailru-ru-top", MOVE,
       "Mail.ru: the move above `>Четверг, 19 ноября 2026, 12:33 +01:00 от pbem <...>:` and pbem's mail (`>`)",
       body_top(MOVE, "\n>Четверг, 19 ноября 2026, 12:33 +01:00 от pbem <pbem@example.net>:\n>\n"
                + quoted(">")), cte="base64")
simple("yandex-ru-top", MOVE,
       "Yandex Mail: the move above `19.11.2026, 12:33, \"pbem\" <...>:` and pbem's mail (`> `)",
       body_top(MOVE, "19.11.2026, 12:33, \"pbem\" <pbem@example.net>:\n" + quoted("> "),
                sig="-- \nОтправлено из мобильного приложения Яндекс Почты"))
simple("kmail-it-top", MOVE,
       "KMail (it): the move above `In data giovedì 19 novembre 2026 12:33:00 CET, pbem ha scritto:` and pbem's mail (`> `)",
       body_top(MOVE, "In data giovedì 19 novembre 2026 12:33:00 CET, pbem ha scritto:\n" + quoted("> ")))
simple("evolution-fi-top", MOVE,
       "Evolution (fi): the move above `to, 2026-11-19 kello 12:33 +0100, pbem kirjoitti:` and pbem's mail (`> `)",
       body_top(MOVE, "to, 2026-11-19 kello 12:33 +0100, pbem kirjoitti:\n" + quoted("> ")))
simple("evolution-pt-bottom", CHATTER,
       "Evolution (pt), bottom-posted: `Em Qui, 2026-11-19 às 12:33 +0100, pbem escreveu:`, pbem's mail (`> `), only chatter",
       body_bottom(CHATTER, "Em Qui, 2026-11-19 às 12:33 +0100, pbem escreveu:\n" + quoted("> ")))
simple("notes-en-indented", MOVE,
       "Old mail indented by four spaces, no `>` (Lotus Notes-like): the move above `pbem <...> wrote on ...:`",
       body_top(MOVE, "pbem <pbem@example.net> wrote on 19/11/2026 12:33:\n\n" + indented("    ")))
simple("notes-en-indented-bottom", MOVE,
       "Old mail indented by four spaces, no `>`, the move below it",
       body_bottom(MOVE, "pbem <pbem@example.net> wrote on 19/11/2026 12:33:\n\n" + indented("    ")))
simple("mailx-en-tab", MOVE,
       "POSIX mailx `~m`: pbem's mail indented with a TAB, the move below it",
       body_bottom(MOVE, "\n".join("\t" + l if l else "\t" for l in NEWS_LINES) + "\n"))
simple("mailx-en-tab-top-board", BOARD,
       "POSIX mailx `~m`, `board` above pbem's mail indented with a TAB",
       body_top(BOARD, "\n".join("\t" + l if l else "\t" for l in NEWS_LINES) + "\n"))
simple("generic-en-interleaved", MOVE,
       "Interleaved reply: Alice's lines between `> ` quoted parts of pbem's mail, the move after the board",
       "On Thu, Nov 19, 2026 at 12:33 PM pbem <pbem@example.net> wrote:\n"
       + quoted("> ", ">", NEWS_LINES[:3]) + "\nNice move.\n\n"
       + quoted("> ", ">", NEWS_LINES[3:22]) + "\n13-21\n\n"
       + quoted("> ", ">", NEWS_LINES[22:]))

# --- replies quoting an earlier wording of pbem's -----------------------------
#
# A game lasts months and pbem's templates change under it: a player
# answers a mail worded before the last change. pbem must read such a
# reply from its shape, whatever it remembers of the lines it sent (the
# harness runs each case with that memory and without it). The old texts
# come from the repository's git history: the news mail exactly as pbem
# sent it on 2026-11-24 (as the mailx fixture of then quoted it), and the
# first templates (0b0b843) rendered with jinja2 around today's board: a
# news mail whose footer breaks `#3 1-9. Other commands: ...` over lines,
# and a refusal that lists the legal moves.

import subprocess

import jinja2

ROOT = Path(__file__).resolve().parents[3]


def git_show(spec):
    return subprocess.run(["git", "-C", str(ROOT), "show", spec], check=True,
                          capture_output=True, text=True).stdout


def quoted_by_mailx(rev):
    """The text pbem's news mail had at `rev`, from the mailx fixture of
    then, which quotes it whole behind a TAB."""
    raw = git_show(f"{rev}:tests/replies/shapes/mailx-en-tab.eml")
    body = email.message_from_string(raw, policy=policy.default).get_content()
    return "\n".join(l[1:] for l in body.split("\n") if l.startswith("\t")) + "\n"


def rendered(rev, name, **values):
    """Template `name` of commit `rev` rendered with jinja2, its subject
    line left out, `_footer.txt` and the other templates of `rev` at hand."""
    files = {}
    for f in ("moved.txt", "rejected.txt", "_footer.txt"):
        text = git_show(f"{rev}:templates/{f}")
        first, _, rest = text.partition("\n")
        files[f] = rest.lstrip("\n") if first.startswith("Subject:") else text
    env = jinja2.Environment(loader=jinja2.DictLoader(files), keep_trailing_newline=True)
    env.filters["wrap"] = lambda t, width=72, indent="": ("\n" + indent).join(
        textwrap.fill(l, width) if len(l) > width else l for l in t.split("\n"))
    return env.get_template(name).render(**values)


# Today's board (and its legend): between the headline and the footer.
BOARD_TEXT = "\n".join(NEWS_LINES[2:NEWS_LINES.index("--")]).strip("\n")
OLD = {
    "news-1124": (quoted_by_mailx("86acf5d"),
                  "86acf5d: the news mail of 2026-11-24, as tests/replies/shapes/mailx-en-tab.eml quoted it"),
    "news-1121": (rendered("0b0b843", "moved.txt", mover="red", move="61-34", ply=2, next=3,
                           your_turn=True, example="1-9", board=BOARD_TEXT, over=False),
                  "0b0b843: templates/moved.txt and _footer.txt rendered (jinja2) with today's board"),
    "refusal-1121": (rendered("0b0b843", "rejected.txt", command="13-45",
                              reason="13-45 is not a legal move: a tower of 3 moves at most 3 squares",
                              board=BOARD_TEXT, legal="13-20, 13-21, 13-22, 13-27, 13-29, 13-31, 13-37, 13-40",
                              **{"from": 13}),
                     "0b0b843: templates/rejected.txt rendered (jinja2): a refusal listing the legal moves"),
}
for key, (text, _) in OLD.items():
    assert "played" in text or "not accepted" in text, (key, text)


def old(name, key, expect_cmd, note, text, subject_prefix="Re: ", html_=None, cte=None,
        extra=(), date="Fri, 20 Nov 2026 09:58:12 +0100"):
    global n
    n += 1
    write(f"{name}-old-{key}", EXPECT[expect_cmd], note + f" (quoting pbem's earlier wording: {key})",
          date, f"{name}.old.{n}@example.org", subject_prefix + SUBJECT, text, html_,
          cte=cte or ("7bit" if text.isascii() else "8bit"), extra=extra, wording=OLD[key][1])


def lines_of(key):
    return OLD[key][0].rstrip("\n").split("\n")


def header_block(names, date, bold=False, sender=PBEM, to="Alice Example <alice@example.org>",
                 subject_prefix=""):
    f, s, t, subj = names
    b = "*" if bold else ""
    return (f"{b}{f}:{b} {sender}\n{b}{s}:{b} {date}\n{b}{t}:{b} {to}\n"
            f"{b}{subj}:{b} {subject_prefix}{SUBJECT}\n\n")


SV = ("Från", "Skickat", "Till", "Ämne")
EN = ("From", "Sent", "To", "Subject")

old("outlook-sv", "news-1124", MOVE,
    "Outlook desktop (sv) text+HTML in quoted-printable: the move above a Från/Skickat/Till/Ämne block and pbem's mail unquoted",
    body_top(MOVE, header_block(SV, "den 19 november 2026 12:33") + OLD["news-1124"][0], sig="Alice"),
    "SV: ", msword_html(MOVE, outlook_html_block("sv", "border"), OLD["news-1124"][0]),
    cte="quoted-printable", extra=("Thread-Topic: " + SUBJECT, "Content-Language: sv-SE"))
old("windowsphone-es", "refusal-1121", MOVE,
    "Windows Phone (es): the move, `Enviado desde mi Windows Phone`, a De/Enviado/Para/Asunto block with no addresses, pbem's refusal unquoted",
    body_top(MOVE, header_block(("De", "Enviado", "Para", "Asunto"), "19/11/2026 12:33", sender="pbem",
                                to="Alice Example") + OLD["refusal-1121"][0],
             sig="Enviado desde mi Windows Phone"),
    "RE: ", cte="quoted-printable")
old("outlook-googleappssync-en", "news-1121", MOVE,
    "Outlook with Google Apps Sync: the move above a bold `*From:* pbem [mailto:...]` block and pbem's mail unquoted",
    body_top(MOVE, header_block(EN, "Thursday, November 19, 2026 12:33 PM", bold=True,
                                sender="pbem [mailto:pbem@example.net]", to="Alice Example")
             + OLD["news-1121"][0], sig="Alice"),
    "RE: ", cte="quoted-printable")
old("outlook-en-iphone-nested", "news-1124", MOVE,
    "Outlook quoting Alice's own iPhone reply: the move above a From/Sent block (from Alice), her earlier `moves 13`, `Sent from my iPhone`, the iPhone's attribution and pbem's mail, none of it marked",
    body_top(MOVE, header_block(EN, "Thursday, November 19, 2026 12:40 PM", sender="Alice Example <alice@example.org>",
                                to=f"pbem <{REPLY_TO}>", subject_prefix="Re: ")
             + "moves 13\n\nSent from my iPhone\n\n"
             "On 19 Nov 2026, at 12:33, pbem <pbem@example.net> wrote:\n\n" + OLD["news-1124"][0]),
    "RE: ", cte="quoted-printable")
old("gmail-fi", "refusal-1121", BOARD,
    "Gmail (fi): `board` above an attribution wrapped before the address and pbem's refusal (`> `)",
    body_top(BOARD, "to 19. marrask. 2026 klo 12.33 pbem\n<pbem@example.net> kirjoitti:\n\n"
             + quoted("> ", lines=lines_of("refusal-1121")) + ">\n"), cte="quoted-printable")
old("gmail-it", "news-1121", MOVE,
    "Gmail (it): the move above `Il giorno ... ha scritto:` wrapped inside the address and pbem's mail (`> `)",
    body_top(MOVE, "Il giorno gio 19 nov 2026 alle ore 12:33 pbem <\npbem@example.net> ha scritto:\n\n"
             + quoted("> ", lines=lines_of("news-1121")) + ">\n", sig="Ciao"), cte="quoted-printable")
old("gmail-pt", "refusal-1121", MOVE,
    "Gmail (pt-PT): the move above `pbem <...> escreveu no dia quinta, ...` over two lines and pbem's refusal (`> `)",
    body_top(MOVE, "pbem <pbem@example.net> escreveu no dia quinta, 19/11/2026\nà(s) 12:33:\n\n"
             + quoted("> ", lines=lines_of("refusal-1121")) + ">\n"), cte="quoted-printable")
old("gmail-ru", "news-1124", CHATTER,
    "Gmail (ru): only chatter above the verbless attribution and pbem's mail (`> `)",
    body_top("Подумаю и отвечу завтра.", "чт, 19 нояб. 2026 г. в 12:33, pbem <pbem@example.net>:\n\n"
             + quoted("> ", lines=lines_of("news-1124")) + ">\n"), cte="base64")
old("gmail-fr-multiline", "refusal-1121", MOVE,
    "Gmail (fr): the move above `Le jeu. ..., pbem - Play by eMail <` / address / `a écrit :` on three lines and pbem's refusal (`> `)",
    body_top(MOVE, "Le jeu. 19 nov. 2026 à 12:33, pbem - Play by eMail <\n"
             f"{REPLY_TO}>\na écrit :\n\n" + quoted("> ", lines=lines_of("refusal-1121")) + ">\n"),
    cte="quoted-printable")
old("gmailmobile-en", "news-1121", MOVE,
    "Gmail for Android: the move above `On Thu, 19 Nov 2026, 12:33 pbem, <...> wrote:` and pbem's mail (`> `)",
    body_top(MOVE, "On Thu, 19 Nov 2026, 12:33 pbem, <pbem@example.net> wrote:\n\n"
             + quoted("> ", lines=lines_of("news-1121")) + ">\n"))
old("yahoo-en", "news-1124", BOARD,
    "Yahoo Mail: `board` above ` On Thursday, ... wrote:` and pbem's mail indented by one space",
    body_top(BOARD, " On Thursday, November 19, 2026 at 12:33:00 PM GMT+1, pbem <pbem@example.net> wrote:  \n \n \n"
             + "\n".join(" " + l if l else "" for l in lines_of("news-1124")) + "\n"))
old("aol-en", "refusal-1121", MOVE,
    "AOL Mail: the move above `-----Original Message-----`, From/To/Sent/Subject and pbem's refusal unquoted",
    body_top(MOVE, "-----Original Message-----\nFrom: pbem <pbem@example.net>\nTo: alice <alice@example.org>\n"
             f"Sent: Thu, Nov 19, 2026 12:33 pm\nSubject: {SUBJECT}\n\n" + OLD["refusal-1121"][0]))
old("zoho-en", "news-1121", MOVE,
    "Zoho Mail: the move above `---- On ... wrote ----` and pbem's mail unquoted",
    body_top(MOVE, "---- On Thu, 19 Nov 2026 12:33:00 +0100 pbem <pbem@example.net> wrote ----\n\n"
             + OLD["news-1121"][0]))
old("zimbra-en", "news-1124", CHATTER,
    "Zimbra: only chatter above `----- Original Message -----` and pbem's mail unquoted",
    body_top(CHATTER, "----- Original Message -----\nFrom: \"pbem\" <pbem@example.net>\n"
             "To: \"Alice Example\" <alice@example.org>\nSent: Thursday, November 19, 2026 12:33:00 PM\n"
             f"Subject: {SUBJECT}\n\n" + OLD["news-1124"][0]),
    extra=("X-Mailer: Zimbra 10.0.6_GA_4641 (ZimbraWebClient - FF120 (Linux)/10.0.6_GA_4641)",))
old("samsung-en", "refusal-1121", MOVE,
    "Samsung Email: the move, `Sent from my Galaxy`, `-------- Original message --------`, a header block and pbem's refusal unquoted",
    body_top(MOVE, "\n\n-------- Original message --------\nFrom: pbem <pbem@example.net> \n"
             "Date: 19/11/2026 12:33 (GMT+01:00) \nTo: Alice Example <alice@example.org> \n"
             f"Subject: {SUBJECT} \n\n" + OLD["refusal-1121"][0], sig="Sent from my Galaxy"))
old("thunderbird-en-bottom", "news-1121", MOVE,
    "Thunderbird, bottom-posted: `On 19/11/2026 12:33, pbem wrote:`, pbem's mail (`> `), then the move",
    body_bottom(MOVE, "On 19/11/2026 12:33, pbem wrote:\n" + quoted("> ", ">", lines_of("news-1121"))),
    extra=("User-Agent: Mozilla Thunderbird",))
old("mailx-en-tab", "news-1121", MOVE,
    "POSIX mailx `~m`: pbem's mail behind a TAB, the move below it",
    body_bottom(MOVE, "\n".join("\t" + l if l else "\t" for l in lines_of("news-1121")) + "\n"))

print(f"{len(list(out.glob('*.eml')))} shapes in {out}")
