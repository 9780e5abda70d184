//! The ways a reply quotes pbem's mail, for the quoting test
//! ([`crate::quoting`]): quote prefixes, attributions in many languages
//! (wrapped over lines too), header blocks of Outlook and other clients in
//! many languages (bold ones too), separators, a nested quote with no
//! marks (Outlook quoting the player's iPhone reply), the whole mail with
//! its headers behind a TAB (`~m` of mailx); the player's text above,
//! below or inside the quote.

use pbem::mail::command::{Command, reads_as_command};

pub const STYLES: &[(&str, &str)] = &[
    ("`> `", "> "),
    ("`>`", ">"),
    ("`> > `", "> > "),
    ("`| `", "| "),
    ("TAB", "\t"),
    ("four spaces", "    "),
    ("one space", " "),
    ("none", ""),
];

/// The style of an unmarked quote.
pub const UNMARKED: usize = STYLES.len() - 1;

/// Where an attribution may stand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fit {
    /// With any style and layout.
    Any,
    /// Above the quote of a top-posted reply only (it carries a client's
    /// signature line, which ends what the player wrote).
    Top,
    /// A nested reply with no marks, the player's text above it: forces
    /// the unmarked style and top-posting.
    UnmarkedTop,
    /// Quoted with the mail, behind the style's prefix: forces TAB.
    Quoted,
}

/// What stands above the quoted mail; `{subject}` is the mail's subject.
pub struct Attribution {
    pub name: &'static str,
    pub head: &'static str,
    pub fit: Fit,
}

const fn a(name: &'static str, head: &'static str) -> Attribution {
    Attribution {
        name,
        head,
        fit: Fit::Any,
    }
}

const fn top(name: &'static str, head: &'static str) -> Attribution {
    Attribution {
        name,
        head,
        fit: Fit::Top,
    }
}

pub const ATTRIBUTIONS: &[Attribution] = &[
    // Gmail's attribution line in its languages.
    a(
        "en",
        "On Wed, Nov 4, 2026 at 10:10 AM pbem <pbem@example.net> wrote:",
    ),
    a(
        "de",
        "Am Mi., 4. Nov. 2026 um 10:10 Uhr schrieb pbem <pbem@example.net>:",
    ),
    a(
        "fr",
        "Le mer. 4 nov. 2026 à 10:10, pbem <pbem@example.net> a écrit :",
    ),
    a(
        "es",
        "El mié, 4 nov 2026 a las 10:10, pbem (<pbem@example.net>) escribió:",
    ),
    a(
        "it",
        "Il giorno mer 4 nov 2026 alle ore 10:10 pbem <pbem@example.net> ha scritto:",
    ),
    a(
        "pt",
        "Em qua., 4 de nov. de 2026 às 10:10, pbem <pbem@example.net> escreveu:",
    ),
    a(
        "nl",
        "Op wo 4 nov 2026 om 10:10 schreef pbem <pbem@example.net>:",
    ),
    a(
        "sv",
        "Den ons 4 nov. 2026 kl 10:10 skrev pbem <pbem@example.net>:",
    ),
    a(
        "da",
        "Den ons. 4. nov. 2026 kl. 10.10 skrev pbem <pbem@example.net>:",
    ),
    a(
        "no",
        "ons. 4. nov. 2026 kl. 10:10 skrev pbem <pbem@example.net>:",
    ),
    a(
        "fi",
        "ke 4.11.2026 klo 10.10 pbem (pbem@example.net) kirjoitti:",
    ),
    a(
        "pl",
        "śr., 4 lis 2026 o 10:10 pbem <pbem@example.net> napisał(a):",
    ),
    a(
        "ru",
        "ср, 4 нояб. 2026 г. в 10:10, pbem <pbem@example.net>:",
    ),
    a(
        "uk",
        "ср, 4 лист. 2026 р. о 10:10 pbem <pbem@example.net> пише:",
    ),
    a(
        "cs",
        "st 4. 11. 2026 v 10:10 odesílatel pbem <pbem@example.net> napsal:",
    ),
    a(
        "tr",
        "4 Kas 2026 Çar, 10:10 tarihinde pbem <pbem@example.net> şunu yazdı:",
    ),
    a("ja", "2026年11月4日(水) 10:10 pbem <pbem@example.net>:"),
    a(
        "zh",
        "pbem <pbem@example.net> 于2026年11月4日周三 10:10写道：",
    ),
    a(
        "zh-TW",
        "pbem <pbem@example.net> 於 2026年11月4日 週三 上午10:10寫道：",
    ),
    a(
        "ko",
        "2026년 11월 4일 (수) 오전 10:10, pbem <pbem@example.net>님이 작성:",
    ),
    a(
        "hu",
        "pbem <pbem@example.net> ezt írta (időpont: 2026. nov. 4., Sze, 10:10):",
    ),
    a(
        "hu wrapped",
        "pbem <pbem@example.net> ezt írta (időpont: 2026. nov.\n4., Sze, 10:10):",
    ),
    a(
        "el",
        "Στις Τετ 4 Νοε 2026 στις 10:10 π.μ., ο/η pbem <pbem@example.net> έγραψε:",
    ),
    a(
        "he",
        "\u{202b}בתאריך יום ד׳, 4 בנוב׳ 2026 ב-10:10 מאת \u{202a}pbem\u{202c}\u{200f} <\u{202a}pbem@example.net\u{202c}\u{200f}>:\u{202c}",
    ),
    a(
        "ar",
        "\u{202b}في الأربعاء، 4 نوفمبر 2026 في 10:10 ص تمت كتابة ما يلي بواسطة \u{202a}pbem\u{202c}\u{200f} <\u{202a}pbem@example.net\u{202c}\u{200f}>:\u{202c}",
    ),
    a(
        "ro",
        "Pe mie., 4 nov. 2026 la 10:10, pbem <pbem@example.net> a scris:",
    ),
    a(
        "vi",
        "Vào Th 4, 4 thg 11, 2026 vào lúc 10:10 pbem <pbem@example.net> đã viết:",
    ),
    a(
        "id",
        "Pada tanggal Rab, 4 Nov 2026 pukul 10.10 pbem <pbem@example.net> menulis:",
    ),
    a(
        "sk",
        "st 4. 11. 2026 o 10:10 pbem <pbem@example.net> napísal(a):",
    ),
    a(
        "hr",
        "sri, 4. stu 2026. u 10:10 pbem <pbem@example.net> napisao je:",
    ),
    a(
        "ca",
        "El dc., 4 de nov. 2026 a les 10:10, pbem (<pbem@example.net>) va escriure:",
    ),
    a(
        "th",
        "เมื่อ พ. 4 พ.ย. 2026 เวลา 10:10 pbem <pbem@example.net> เขียนว่า:",
    ),
    // Other clients' lines, and lines wrapped before the address.
    a(
        "en wrapped",
        "On Wed, Nov 4, 2026 at 10:10 AM pbem <\npbem+bz-test1.alicekey2345@example.net> wrote:",
    ),
    a(
        "en mobile Gmail",
        "On Wed, 4 Nov 2026, 10:10 pbem, <pbem@example.net> wrote:",
    ),
    a(
        "en Apple Mail",
        "On 4 Nov 2026, at 10:10, pbem <pbem@example.net> wrote:",
    ),
    a("en Thunderbird", "On 04/11/2026 10:10, pbem wrote:"),
    a(
        "en Yahoo",
        "On Wednesday, November 4, 2026 at 10:10:00 AM GMT+1, pbem <pbem@example.net> wrote:",
    ),
    a(
        "en K-9",
        "On November 4, 2026 10:10:00 AM GMT+01:00, pbem <pbem@example.net> wrote:",
    ),
    a(
        "de wrapped",
        "Am Mi., 4. Nov. 2026 um 10:10 Uhr schrieb pbem <\npbem@example.net>:",
    ),
    a(
        "de Apple Mail",
        "Am 04.11.2026 um 10:10 schrieb pbem <pbem@example.net>:",
    ),
    a(
        "fr on 2 lines",
        "Le mer. 4 nov. 2026 à 10:10, pbem <pbem@example.net>\na écrit :",
    ),
    a(
        "fr on 3 lines",
        "Le mer. 4 nov. 2026 à 10:10, pbem - Play by eMail <\npbem+bz-test1.alicekey2345@example.net>\na écrit :",
    ),
    a(
        "fr on 4 lines",
        "Le mercredi 4 novembre 2026 à 10:10,\npbem - Play by eMail\n<pbem+bz-test1.alicekey2345@example.net>\na écrit :",
    ),
    a(
        "fi wrapped",
        "ke 4. marrask. 2026 klo 10.10 pbem\n<pbem@example.net> kirjoitti:",
    ),
    a(
        "it KMail",
        "In data 4 novembre 2026 10:10:00 \"pbem\" <pbem@example.net> ha scritto:",
    ),
    a("it Thunderbird", "Il 04/11/2026 10:10, pbem ha scritto:"),
    a(
        "pt-PT",
        "pbem <pbem@example.net> escreveu no dia quarta, 4/11/2026\nà(s) 10:10:",
    ),
    a(
        "pt-BR wrapped",
        "Em 4 de novembro de 2026 às 10:10:35, pbem (\npbem@example.net) escreveu:",
    ),
    a("ru Thunderbird", "04.11.2026 10:10, pbem пишет:"),
    a(
        "ru Yandex",
        "04.11.2026, 10:10, \"pbem\" <pbem@example.net>:",
    ),
    a(
        "ru Mail.ru",
        "Среда, 4 ноября 2026, 10:10 +01:00 от pbem <pbem@example.net>:",
    ),
    a(
        "ru Apple Mail",
        "4 нояб. 2026 г., в 10:10, pbem <pbem@example.net> написал(а):",
    ),
    a("el Roundcube", "Στις 2026-11-04 10:10, pbem έγραψε:"),
    a(
        "Zoho",
        "---- On Wed, 04 Nov 2026 10:10:00 +0100 pbem <pbem@example.net> wrote ----",
    ),
    // Header blocks of Outlook and others.
    a(
        "Outlook block",
        "From: pbem <pbem@example.net>\nSent: Wednesday, November 4, 2026 10:10 AM\n\
         To: Alice Example <alice@example.org>\nSubject: {subject}",
    ),
    a(
        "Outlook de",
        "Von: pbem <pbem@example.net>\nGesendet: Mittwoch, 4. November 2026 10:10\n\
         An: Alice Example <alice@example.org>\nBetreff: {subject}",
    ),
    a(
        "Outlook fr",
        "De : pbem <pbem@example.net>\nEnvoyé : mercredi 4 novembre 2026 10:10\n\
         À : Alice Example <alice@example.org>\nObjet : {subject}",
    ),
    a(
        "Outlook es",
        "De: pbem <pbem@example.net>\nEnviado el: miércoles, 4 de noviembre de 2026 10:10\n\
         Para: Alice Example <alice@example.org>\nAsunto: {subject}",
    ),
    a(
        "Outlook it",
        "Da: pbem <pbem@example.net>\nInviato: mercoledì 4 novembre 2026 10:10\n\
         A: Alice Example <alice@example.org>\nOggetto: {subject}",
    ),
    a(
        "Outlook pt",
        "De: pbem <pbem@example.net>\nEnviada em: quarta-feira, 4 de novembro de 2026 10:10\n\
         Para: Alice Example <alice@example.org>\nAssunto: {subject}",
    ),
    a(
        "Outlook nl",
        "Van: pbem <pbem@example.net>\nVerzonden: woensdag 4 november 2026 10:10\n\
         Aan: Alice Example <alice@example.org>\nOnderwerp: {subject}",
    ),
    a(
        "Outlook sv",
        "Från: pbem <pbem@example.net>\nSkickat: den 4 november 2026 10:10\n\
         Till: Alice Example <alice@example.org>\nÄmne: {subject}",
    ),
    a(
        "Outlook da",
        "Fra: pbem <pbem@example.net>\nSendt: 4. november 2026 10:10\n\
         Til: Alice Example <alice@example.org>\nEmne: {subject}",
    ),
    a(
        "Outlook fi",
        "Lähettäjä: pbem <pbem@example.net>\nLähetetty: keskiviikko 4. marraskuuta 2026 10.10\n\
         Vastaanottaja: Alice Example <alice@example.org>\nAihe: {subject}",
    ),
    a(
        "Outlook pl",
        "Od: pbem <pbem@example.net>\nWysłano: środa, 4 listopada 2026 10:10\n\
         Do: Alice Example <alice@example.org>\nTemat: {subject}",
    ),
    a(
        "Outlook ru",
        "От: pbem <pbem@example.net>\nОтправлено: 4 ноября 2026 г. 10:10\n\
         Кому: Alice Example <alice@example.org>\nТема: {subject}",
    ),
    a(
        "Outlook cs",
        "Od: pbem <pbem@example.net>\nOdesláno: středa 4. listopadu 2026 10:10\n\
         Komu: Alice Example <alice@example.org>\nPředmět: {subject}",
    ),
    a(
        "Outlook tr",
        "Kimden: pbem <pbem@example.net>\nGönderildi: 4 Kasım 2026 Çarşamba 10:10\n\
         Kime: Alice Example <alice@example.org>\nKonu: {subject}",
    ),
    a(
        "Outlook hu",
        "Feladó: pbem <pbem@example.net>\nElküldve: 2026. november 4., szerda 10:10\n\
         Címzett: Alice Example <alice@example.org>\nTárgy: {subject}",
    ),
    a(
        "Outlook ja",
        "差出人: pbem <pbem@example.net>\n送信日時: 2026年11月4日 10:10\n\
         宛先: Alice Example <alice@example.org>\n件名: {subject}",
    ),
    a(
        "Outlook zh",
        "发件人: pbem <pbem@example.net>\n发送时间: 2026年11月4日 10:10\n\
         收件人: Alice Example <alice@example.org>\n主题: {subject}",
    ),
    a(
        "Outlook ko",
        "보낸 사람: pbem <pbem@example.net>\n보낸 날짜: 2026년 11월 4일 수요일 오전 10:10\n\
         받는 사람: Alice Example <alice@example.org>\n제목: {subject}",
    ),
    a(
        "Outlook el",
        "Από: pbem <pbem@example.net>\nΣτάλθηκε: Τετάρτη, 4 Νοεμβρίου 2026 10:10 π.μ.\n\
         Προς: Alice Example <alice@example.org>\nΘέμα: {subject}",
    ),
    a(
        "Outlook bold (Google Apps Sync)",
        "*From:* pbem [mailto:pbem@example.net]\n*Sent:* Wednesday, November 4, 2026 10:10 AM\n\
         *To:* Alice Example\n*Subject:* {subject}",
    ),
    a(
        "Outlook bold de",
        "*Von:* pbem [mailto:pbem@example.net]\n*Gesendet:* Mittwoch, 4. November 2026 10:10\n\
         *An:* Alice Example\n*Betreff:* {subject}",
    ),
    a(
        "Outlook mailto",
        "From: pbem [mailto:pbem@example.net] \nSent: Wednesday, November 4, 2026 10:10 AM\n\
         To: Alice Example\nSubject: {subject}",
    ),
    a(
        "Outlook Original Message",
        "-----Original Message-----\nFrom: pbem [mailto:pbem@example.net] \n\
         Sent: Wednesday, November 4, 2026 10:10 AM\nTo: Alice Example <alice@example.org>\n\
         Subject: {subject}",
    ),
    a(
        "Outlook web rule",
        "________________________________\nFrom: pbem <pbem@example.net>\n\
         Sent: Wednesday, November 4, 2026 9:10 AM\nTo: Alice Example <alice@example.org>\n\
         Subject: {subject}",
    ),
    a(
        "Outlook web rule sv",
        "________________________________\nFrån: pbem <pbem@example.net>\n\
         Skickat: den 4 november 2026 10:10\nTill: Alice Example <alice@example.org>\n\
         Ämne: {subject}",
    ),
    a(
        "Outlook Mac",
        "From: pbem <pbem@example.net>\nDate: Wednesday, 4 November 2026 at 10:10\n\
         To: Alice Example <alice@example.org>\nSubject: {subject}",
    ),
    a(
        "Windows Mail",
        "From: pbem\nSent: Wednesday, 4 November 2026 10:10\nTo: Alice Example\nSubject: {subject}",
    ),
    a(
        "Windows Phone es",
        "De: pbem\nEnviado: 04/11/2026 10:10\nPara: Alice Example\nAsunto: {subject}",
    ),
    a(
        "AOL",
        "-----Original Message-----\nFrom: pbem <pbem@example.net>\nTo: alice <alice@example.org>\n\
         Sent: Wed, Nov 4, 2026 10:10 am\nSubject: {subject}",
    ),
    a(
        "Zimbra",
        "----- Original Message -----\nFrom: \"pbem\" <pbem@example.net>\n\
         To: \"Alice Example\" <alice@example.org>\nSent: Wednesday, November 4, 2026 10:10:00 AM\n\
         Subject: {subject}",
    ),
    a(
        "Zimbra de",
        "----- Ursprüngliche Mail -----\nVon: \"pbem\" <pbem@example.net>\n\
         An: \"Alice Example\" <alice@example.org>\nGesendet: Mittwoch, 4. November 2026 10:10:00\n\
         Betreff: {subject}",
    ),
    a(
        "Samsung",
        "-------- Original message --------\nFrom: pbem <pbem@example.net> \n\
         Date: 04/11/2026 10:10 (GMT+01:00) \nTo: Alice Example <alice@example.org> \n\
         Subject: {subject} ",
    ),
    // A forward is another's mail from its separator on: the player's
    // words are above it (a command below it is the forwarded mail's).
    top(
        "Gmail forward",
        "---------- Forwarded message ---------\nFrom: pbem <pbem@example.net>\n\
         Date: Wed, Nov 4, 2026 at 10:10 AM\nSubject: {subject}\nTo: Alice Example <alice@example.org>",
    ),
    top(
        "Outlook iOS",
        "Get Outlook for iOS<https://aka.ms/o0ukef>\n________________________________\n\
         From: pbem <pbem@example.net>\nSent: Wednesday, November 4, 2026 10:10:05 AM\n\
         To: Alice Example <alice@example.org>\nSubject: {subject}",
    ),
    top(
        "Samsung signed",
        "Sent from my Galaxy\n\n\n-------- Original message --------\nFrom: pbem <pbem@example.net> \n\
         Date: 04/11/2026 10:10 (GMT+01:00) \nTo: Alice Example <alice@example.org> \n\
         Subject: {subject} ",
    ),
    // Outlook quoting the player's earlier iPhone reply: no marks at all,
    // and the command in it (`moves 13`) is quoted, not the player's.
    Attribution {
        name: "Outlook quoting an iPhone reply",
        head: "From: Alice Example <alice@example.org>\nSent: Wednesday, November 4, 2026 10:12 AM\n\
               To: pbem <pbem+bz-test1.alicekey2345@example.net>\nSubject: RE: {subject}\n\n\
               moves 13\n\nSent from my iPhone\n\n\
               On 4 Nov 2026, at 10:10, pbem <pbem@example.net> wrote:",
        fit: Fit::UnmarkedTop,
    },
    Attribution {
        name: "Outlook sv quoting an iPhone reply",
        head: "Från: Alice Example <alice@example.org>\nSkickat: den 4 november 2026 10:12\n\
               Till: pbem <pbem+bz-test1.alicekey2345@example.net>\nÄmne: SV: {subject}\n\n\
               moves 13\n\nSkickat från min iPhone\n\n\
               4 nov. 2026 kl. 10:10 skrev pbem <pbem@example.net>:",
        fit: Fit::UnmarkedTop,
    },
    // mailx `~m`: the whole mail, headers and all, behind a TAB.
    Attribution {
        name: "mailx ~m with headers",
        head: "From pbem@example.net  Wed Nov  4 10:10:00 2026\nReturn-Path: <pbem@example.net>\n\
               From: pbem <pbem@example.net>\nTo: alice@example.org\nSubject: {subject}\n\
               Date: Wed, 04 Nov 2026 10:10:00 +0000\nMessage-ID: <pbem.bz-test1.1.0@example.net>\n\
               X-Pbem-Loop: pbem@example.net\nMIME-Version: 1.0\n\
               Content-Type: text/plain; charset=utf-8\n",
        fit: Fit::Quoted,
    },
    a("no attribution", ""),
];

/// The attribution that is none.
pub const NO_ATTRIBUTION: usize = ATTRIBUTIONS.len() - 1;

pub const LAYOUTS: &[&str] = &["top-posted", "bottom-posted", "interleaved"];

/// The player's own text and the commands it holds.
pub fn own(which: usize) -> (&'static str, Vec<Command>) {
    match which {
        0 => (
            "13-21",
            vec![Command::Move {
                number: None,
                text: "13-21".into(),
            }],
        ),
        1 => ("board", vec![Command::Board]),
        _ => ("Thanks, thinking about it.", vec![]),
    }
}

/// One reply: which mail it quotes, in which style, after which
/// attribution, laid out how, with which text of the player's.
#[derive(Clone, Copy, Debug)]
pub struct Combo {
    pub mail: usize,
    pub style: usize,
    pub attribution: usize,
    pub layout: usize,
    pub own: usize,
}

impl Combo {
    /// The combination as the attribution allows it: its forced style
    /// and layout.
    pub fn fitted(mut self) -> Combo {
        match ATTRIBUTIONS[self.attribution].fit {
            Fit::Any => {}
            Fit::Top => self.layout = 0,
            Fit::UnmarkedTop => {
                self.style = UNMARKED;
                self.layout = 0;
            }
            Fit::Quoted => self.style = STYLES.iter().position(|s| s.0 == "TAB").unwrap(),
        }
        self
    }
}

/// `lines` behind `prefix`; a blank line gets the prefix's mark alone.
fn quote(prefix: &str, lines: &[&str]) -> String {
    lines
        .iter()
        .map(|l| {
            if l.is_empty() {
                prefix.trim_end().to_string()
            } else {
                format!("{prefix}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The parts of the reply that quote the mail (one, or two around the
/// player's text when interleaved), each as its lines.
fn parts(c: Combo, text: &str) -> Vec<Vec<&str>> {
    let lines: Vec<&str> = text.lines().collect();
    if LAYOUTS[c.layout] == "interleaved" {
        let cut = lines.len() / 2;
        vec![lines[..cut].to_vec(), lines[cut..].to_vec()]
    } else {
        vec![lines]
    }
}

/// The reply's body for one combination quoting `text` (subject
/// `subject`).
pub fn body(c: Combo, subject: &str, text: &str) -> String {
    let prefix = STYLES[c.style].1;
    let at = &ATTRIBUTIONS[c.attribution];
    let head = at.head.replace("{subject}", subject);
    let head = match (head.is_empty(), at.fit) {
        (true, _) => String::new(),
        // The headers, a blank line, the body: all behind the prefix.
        (false, Fit::Quoted) => {
            let lines: Vec<&str> = head.lines().chain([""]).collect();
            format!("{}\n", quote(prefix, &lines))
        }
        (false, _) => format!("{head}\n\n"),
    };
    let (own, _) = own(c.own);
    let parts = parts(c, text);
    match LAYOUTS[c.layout] {
        "top-posted" => format!("{own}\n\nAlice\n\n{head}{}\n", quote(prefix, &parts[0])),
        "bottom-posted" => format!("{head}{}\n\n{own}\n\nAlice\n", quote(prefix, &parts[0])),
        _ => format!(
            "{head}{}\n\n{own}\n\n{}\n",
            quote(prefix, &parts[0]),
            quote(prefix, &parts[1])
        ),
    }
}

/// Whether no reader could tell the player's text from the quote's: an
/// unmarked (or one-space) quote with the player's text below or inside it, where a
/// paragraph of the quote as it stands in the reply is one line that
/// reads as a command (an old wording's, or a template's before pbem's
/// inert pass), just as the player's own would stand.
pub fn ambiguous(c: Combo, text: &str) -> bool {
    // One space is no quote mark: format=flowed stuffs one into a
    // player's own line.
    let unmarked = c.style == UNMARKED || STYLES[c.style].1 == " ";
    if !unmarked || LAYOUTS[c.layout] == "top-posted" {
        return false;
    }
    parts(c, text).iter().any(|part| {
        part.split(|l| l.trim().is_empty())
            .any(|p| p.len() == 1 && reads_as_command(p[0]))
    })
}

pub fn raw_mail(body: &str) -> String {
    format!(
        "From: Alice Example <alice@example.org>\nTo: pbem <pbem+bz-test1.alicekey2345@example.net>\n\
         Subject: Re: [pbem bz-test1] your game\nDate: Wed, 4 Nov 2026 10:20:00 +0100\n\
         Message-ID: <quoting@example.org>\nIn-Reply-To: <pbem.bz-test1.1.0@example.net>\n\
         MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\
         Content-Transfer-Encoding: 8bit\n\n{body}"
    )
}
