//! The table of what mail clients write around quoted mail: separators,
//! header blocks, attributions and signatures, with an example each.

use super::*;
use Evidence::{AddressAndDate, AddressOrDate};
use Kind::{Separator, Signature};

/// Every recognised shape. Within a kind the first matching row names the
/// match, so specific rows come before general ones.
pub const TABLE: &[Row] = &[
    // ---- Separators: `-- words --` lines of many clients and languages.
    row(
        "separator/en",
        Separator,
        r"^-{2,}\s*(?:original message|reply message|forwarded message)\s*-{2,}$",
        &[
            "-----Original Message-----",
            "-------- Original message --------",
            "----- Original Message -----",
            "---------- Forwarded message ---------",
            "----- Forwarded Message -----",
        ],
    ),
    row(
        "separator/apple-forward",
        Separator,
        r"^(?:begin forwarded message|anfang der weitergeleiteten nachricht|inicio del mensaje reenviado|inizio messaggio inoltrato|begin doorgestuurd bericht|vidarebefordrat mejl|videresendt meddelelse|välitetty viesti alkaa|początek przekazywanej wiadomości|начало переадресованного сообщения)\s*:?$",
        &[
            "Begin forwarded message:",
            "Anfang der weitergeleiteten Nachricht:",
            "Inicio del mensaje reenviado:",
        ],
    ),
    row(
        "separator/outlook-web-rule",
        Separator,
        r"^_{10,}$",
        &["________________________________"],
    ),
    row(
        "separator/zoho-android-wrote",
        Separator,
        r"^-{2,}\s*.*\b(?:wrote|schrieb|a écrit|escribió|ha scritto|escreveu|schreef|skrev)\b.*-{2,}$",
        &[
            "---- On Fri, 20 Nov 2026 10:00:00 +0000 pbem <pbem@example.net> wrote ----",
            "---- Am Fr, 20 Nov 2026 10:00:00 +0000 schrieb pbem <pbem@example.net> ----",
        ],
    ),
    row(
        "separator/de",
        Separator,
        r"^-{2,}\s*(?:ursprüngliche nachricht|weitergeleitete nachricht|originalnachricht)\s*-{2,}$",
        &[
            "-----Ursprüngliche Nachricht-----",
            "-------- Ursprüngliche Nachricht --------",
            "-------- Weitergeleitete Nachricht --------",
        ],
    ),
    row(
        "separator/fr",
        Separator,
        r"^(?:-{2,}\s*(?:message d'origine|message original|message transféré)\s*-{2,}|début du message (?:réexpédié|transféré)\s*:?)$",
        &[
            "-----Message d'origine-----",
            "-------- Message d'origine --------",
            "-------- Message transféré --------",
            "Début du message réexpédié :",
        ],
    ),
    row(
        "separator/es",
        Separator,
        r"^-{2,}\s*(?:mensaje original|mensaje reenviado)\s*-{2,}$",
        &[
            "-----Mensaje original-----",
            "-------- Mensaje original --------",
            "---------- Mensaje reenviado ---------",
        ],
    ),
    row(
        "separator/it",
        Separator,
        r"^-{2,}\s*(?:messaggio originale|messaggio inoltrato)\s*-{2,}$",
        &[
            "-----Messaggio originale-----",
            "-------- Messaggio originale --------",
        ],
    ),
    row(
        "separator/pt",
        Separator,
        r"^-{2,}\s*(?:mensagem original|mensagem encaminhada)\s*-{2,}$",
        &[
            "-----Mensagem original-----",
            "-------- Mensagem original --------",
        ],
    ),
    row(
        "separator/nl",
        Separator,
        r"^-{2,}\s*(?:oorspronkelijk bericht|origineel bericht|doorgestuurd bericht)\s*-{2,}$",
        &[
            "-----Oorspronkelijk bericht-----",
            "-------- Origineel bericht --------",
        ],
    ),
    row(
        "separator/sv",
        Separator,
        r"^-{2,}\s*(?:ursprungligt meddelande|originalmeddelande|vidarebefordrat meddelande)\s*-{2,}$",
        &[
            "-----Ursprungligt meddelande-----",
            "-------- Originalmeddelande --------",
        ],
    ),
    row(
        "separator/da-no",
        Separator,
        r"^-{2,}\s*(?:oprindelig (?:besked|meddelelse)|opprinnelig melding|videresendt (?:besked|melding))\s*-{2,}$",
        &[
            "-----Oprindelig meddelelse-----",
            "-------- Oprindelig besked --------",
            "-------- Opprinnelig melding --------",
        ],
    ),
    row(
        "separator/fi",
        Separator,
        r"^-{2,}\s*(?:alkuperäinen viesti|välitetty viesti)\s*-{2,}$",
        &[
            "-----Alkuperäinen viesti-----",
            "-------- Alkuperäinen viesti --------",
        ],
    ),
    row(
        "separator/pl",
        Separator,
        r"^-{2,}\s*(?:wiadomość oryginalna|oryginalna wiadomość|przekazana wiadomość|przesłana wiadomość|wiadomość przekazana dalej)\s*-{2,}$",
        &[
            "-----Wiadomość oryginalna-----",
            "-------- Oryginalna wiadomość --------",
            "---------- Wiadomość przekazana dalej ---------",
        ],
    ),
    row(
        "separator/ru",
        Separator,
        r"^-{2,}\s*(?:исходное сообщение|пересылаемое сообщение|пересланное сообщение|начало переадресованного сообщения|оригинальное сообщение)\s*-{2,}$",
        &[
            "-------- Исходное сообщение --------",
            "-------- Пересылаемое сообщение --------",
            "-----Исходное сообщение-----",
        ],
    ),
    row(
        "separator/uk",
        Separator,
        r"^-{2,}\s*(?:вихідне повідомлення|оригінальне повідомлення|початкове повідомлення|переслане повідомлення)\s*-{2,}$",
        &[
            "-------- Оригінальне повідомлення --------",
            "-----Вихідне повідомлення-----",
        ],
    ),
    row(
        "separator/cs",
        Separator,
        r"^-{2,}\s*(?:původní zpráva|přeposlaná zpráva)\s*-{2,}$",
        &[
            "-------- Původní zpráva --------",
            "-----Původní zpráva-----",
            "---------- Přeposlaná zpráva ----------",
        ],
    ),
    row(
        "separator/tr",
        Separator,
        r"^-{2,}\s*(?:orijinal mesaj|özgün [iİ]leti|[iİ]letilen mesaj|asıl [iİ]leti|yönlendirilmiş [iİ]leti)\s*-{2,}$",
        &[
            "-----Özgün İleti-----",
            "-------- Orijinal mesaj --------",
            "---------- Yönlendirilmiş ileti ---------",
        ],
    ),
    row(
        "separator/ja",
        Separator,
        r"^-{2,}\s*(?:元のメッセージ|転送(?:された)?メッセージ|オリジナルメッセージ)\s*-{2,}$",
        &[
            "-----元のメッセージ-----",
            "-------- 転送メッセージ --------",
        ],
    ),
    row(
        "separator/zh",
        Separator,
        r"^-{2,}\s*(?:原始邮件|原始郵件|原始消息|原始訊息|转发的邮件|轉寄的郵件|邮件原件)\s*-{2,}$",
        &[
            "-------- 原始邮件 --------",
            "------------------ 原始邮件 ------------------",
            "-----原始郵件-----",
        ],
    ),
    // ---- Header blocks: `From:` then `Sent:`/`To:`/`Subject:` labels.
    header_row(
        "header/en",
        "from",
        "sent|date|to|cc|subject|reply-to",
        &[
            "From: pbem <pbem@example.net>\nSent: Friday, November 20, 2026 10:00 AM\nTo: Bob <bob@example.org>\nSubject: Re: bz-test1, move 3",
        ],
    ),
    header_row(
        "header/de",
        "von",
        "gesendet|datum|an|cc|betreff",
        &[
            "Von: pbem <pbem@example.net>\nGesendet: Freitag, 20. November 2026 10:00\nAn: Bob\nBetreff: AW: Zug 3",
        ],
    ),
    header_row(
        "header/fr",
        "de|expéditeur",
        "envoyé|date|à|a|cc|objet|destinataire",
        &[
            "De : pbem <pbem@example.net>\nEnvoyé : vendredi 20 novembre 2026 10:00\nÀ : Bob\nObjet : RE: coup 3",
        ],
    ),
    header_row(
        "header/es",
        "de",
        "enviado|enviado el|fecha|para|cc|asunto",
        &[
            "De: pbem <pbem@example.net>\nEnviado: viernes, 20 de noviembre de 2026 10:00\nPara: Bob\nAsunto: RE: jugada 3",
        ],
    ),
    header_row(
        "header/it",
        "da",
        "inviato|data|a|cc|oggetto",
        &[
            "Da: pbem <pbem@example.net>\nInviato: venerdì 20 novembre 2026 10:00\nA: Bob\nOggetto: R: mossa 3",
        ],
    ),
    header_row(
        "header/pt",
        "de",
        "enviada|enviado|enviada em|enviado em|data|para|cc|assunto",
        &[
            "De: pbem <pbem@example.net>\nEnviada em: sexta-feira, 20 de novembro de 2026 10:00\nPara: Bob\nAssunto: RE: lance 3",
        ],
    ),
    header_row(
        "header/nl",
        "van",
        "verzonden|datum|aan|cc|onderwerp",
        &[
            "Van: pbem <pbem@example.net>\nVerzonden: vrijdag 20 november 2026 10:00\nAan: Bob\nOnderwerp: RE: zet 3",
        ],
    ),
    header_row(
        "header/sv",
        "från",
        "skickat|datum|till|kopia|ämne",
        &[
            "Från: pbem <pbem@example.net>\nSkickat: den 20 november 2026 10:00\nTill: Bob\nÄmne: SV: drag 3",
        ],
    ),
    header_row(
        "header/da-no",
        "fra",
        "sendt|dato|til|cc|kopi|emne",
        &[
            "Fra: pbem <pbem@example.net>\nSendt: 20. november 2026 10:00\nTil: Bob\nEmne: SV: træk 3",
        ],
    ),
    header_row(
        "header/fi",
        "lähettäjä",
        "lähetetty|päivämäärä|vastaanottaja|kopio|aihe",
        &[
            "Lähettäjä: pbem <pbem@example.net>\nLähetetty: perjantai 20. marraskuuta 2026 10.00\nVastaanottaja: Bob\nAihe: VS: siirto 3",
        ],
    ),
    header_row(
        "header/pl",
        "od",
        "wysłano|wysłane|data|do|dw|temat",
        &[
            "Od: pbem <pbem@example.net>\nWysłano: piątek, 20 listopada 2026 10:00\nDo: Bob\nTemat: RE: ruch 3",
        ],
    ),
    header_row(
        "header/ru",
        "от",
        "отправлено|дата|кому|копия|тема",
        &[
            "От: pbem <pbem@example.net>\nОтправлено: 20 ноября 2026 г. 10:00\nКому: Bob\nТема: RE: ход 3",
        ],
    ),
    header_row(
        "header/uk",
        "від",
        "надіслано|дата|кому|копія|тема",
        &[
            "Від: pbem <pbem@example.net>\nНадіслано: 20 листопада 2026 р. 10:00\nКому: Bob\nТема: RE: хід 3",
        ],
    ),
    header_row(
        "header/cs",
        "od",
        "odesláno|datum|komu|kopie|předmět",
        &[
            "Od: pbem <pbem@example.net>\nOdesláno: pátek 20. listopadu 2026 10:00\nKomu: Bob\nPředmět: RE: tah 3",
        ],
    ),
    header_row(
        "header/tr",
        "kimden",
        "gönderildi|gönderilme|tarih|kime|bilgi|konu",
        &[
            "Kimden: pbem <pbem@example.net>\nGönderildi: 20 Kasım 2026 Cuma 10:00\nKime: Bob\nKonu: YNT: hamle 3",
        ],
    ),
    header_row(
        "header/ja",
        "差出人|送信者",
        "送信日時|日付|宛先|cc|件名",
        &[
            "差出人: pbem <pbem@example.net>\n送信日時: 2026年11月20日 10:00\n宛先: Bob\n件名: RE: 手 3",
        ],
    ),
    header_row(
        "header/zh-hans",
        "发件人",
        "发送时间|日期|时间|收件人|抄送|主题",
        &[
            "发件人: pbem <pbem@example.net>\n发送时间: 2026年11月20日 10:00\n收件人: Bob\n主题: 回复: 第3步",
        ],
    ),
    header_row(
        "header/zh-hant",
        "寄件者|寄件人",
        "寄件日期|日期|收件者|收件人|副本|主旨",
        &[
            "寄件者: pbem <pbem@example.net>\n寄件日期: 2026年11月20日 10:00\n收件者: Bob\n主旨: 回覆: 第3步",
        ],
    ),
    // ---- Attributions. Anchored ones first (`On ... wrote:`), then the
    // name-first ones, which need an address or a date to count.
    attribution_row(
        "attribution/en",
        r"^(?:on|at)\b.*\b(?:wrote|writes)\s*[:：]$",
        Evidence::None,
        &[
            "On Fri, 20 Nov 2026 at 10:00, pbem <pbem@example.net> wrote:",
            "On Fri, 20 Nov 2026 at 10:00, pbem <pbem@example.net>\nwrote:",
            "On Fri, Nov 20, 2026 at 10:00:00AM +0000, pbem wrote:",
            "On 20 Nov 2026, at 10:00, pbem <pbem@example.net> wrote:",
            "On 2026-11-20 10:00, pbem wrote:",
            "On Friday, November 20, 2026, 10:00:00 AM GMT, pbem <pbem@example.net> wrote:",
        ],
    ),
    attribution_row(
        "attribution/de",
        r"^am\b.*\b(?:schrieb|geschrieben)\b.*[:：]$",
        Evidence::None,
        &[
            "Am 20.11.2026 um 10:00 schrieb pbem:",
            "Am Fr., 20. Nov. 2026 um 10:00 Uhr schrieb pbem <\npbem@example.net>:",
        ],
    ),
    attribution_row(
        "attribution/fr",
        r"^le\b.*\ba\s+écrit\s*[:：]$",
        Evidence::None,
        &["Le ven. 20 nov. 2026 à 10:00, pbem <pbem@example.net> a écrit :"],
    ),
    attribution_row(
        "attribution/es",
        r"^el\b.*\bescribió\s*[:：]$",
        Evidence::None,
        &["El vie, 20 nov 2026 a las 10:00, pbem (<pbem@example.net>)\nescribió:"],
    ),
    attribution_row(
        "attribution/it",
        r"^(?:il|in data)\b.*\bha\s+scritto\s*[:：]$",
        Evidence::None,
        &[
            "Il giorno ven 20 nov 2026 alle ore 10:00 pbem <pbem@example.net> ha scritto:",
            "In data 20 novembre 2026 10:00:00, pbem <pbem@example.net> ha scritto:",
        ],
    ),
    attribution_row(
        "attribution/pt",
        r"^em\b.*\bescreveu\s*[:：]$",
        Evidence::None,
        &["Em sex., 20 de nov. de 2026 às 10:00, pbem <pbem@example.net>\nescreveu:"],
    ),
    attribution_row(
        "attribution/nl",
        r"^op\b.*\b(?:schreef|het volgende geschreven)\b.*[:：]$",
        Evidence::None,
        &[
            "Op vr 20 nov. 2026 om 10:00 schreef pbem <pbem@example.net>:",
            "Op 20 nov. 2026 om 10:00 heeft pbem <pbem@example.net> het volgende geschreven:",
        ],
    ),
    attribution_row(
        "attribution/sv-da-no",
        r"^den\b.*\bskrev\b.*[:：]$",
        AddressOrDate,
        &["Den fre 20 nov. 2026 kl 10:00 skrev pbem <pbem@example.net>:"],
    ),
    attribution_row(
        "attribution/pl",
        r"^(?:w dniu|dnia)\b.*\b(?:napisał|napisała|napisał\(a\)|pisze)\s*[:：]$",
        Evidence::None,
        &["W dniu pt., 20.11.2026 o 10:00 pbem <pbem@example.net>\nnapisał(a):"],
    ),
    attribution_row(
        "attribution/cs",
        r"^dne\b.*\bnapsal(?:a|\(a\))?\s*[:：]$",
        Evidence::None,
        &["Dne pá 20. 11. 2026 10:00 uživatel pbem <pbem@example.net>\nnapsal:"],
    ),
    attribution_row(
        "attribution/tr",
        r"\btarihinde\b.*\byazdı\s*[:：]$",
        AddressOrDate,
        &["pbem <pbem@example.net>, 20 Kas 2026 Cum, 10:00 tarihinde şunu yazdı:"],
    ),
    attribution_row(
        "attribution/zh-anchored",
        r"^在.*(?:写道|寫道)\s*[:：]$",
        Evidence::None,
        &["在 2026年11月20日 10:00，pbem 写道："],
    ),
    attribution_row(
        "attribution/en-named",
        r"\b(?:wrote|writes)(?:\s+on\b.*)?\s*[:：]$",
        AddressOrDate,
        &[
            "pbem <pbem@example.net> wrote:",
            "pbem wrote on 20/11/2026 10:00:",
        ],
    ),
    attribution_row(
        "attribution/de-named",
        r"\b(?:schrieb|geschrieben)\b.*[:：]$",
        AddressOrDate,
        &[
            "pbem <pbem@example.net> schrieb am Fr., 20. Nov. 2026, 10:00:",
            "pbem <pbem@example.net> hat am 20. November 2026 um 10:00 geschrieben:",
        ],
    ),
    attribution_row(
        "attribution/sv-da-no-named",
        r"\bskrev\b.*[:：]$",
        AddressOrDate,
        &[
            "fre 20 nov. 2026 kl. 10:00 skrev pbem <pbem@example.net>:",
            "pbem <pbem@example.net> skrev:",
        ],
    ),
    attribution_row(
        "attribution/fi",
        r"\bkirjoitti\s*[:：]$",
        AddressOrDate,
        &["pe 20.11.2026 klo 10.00 pbem (pbem@example.net) kirjoitti:"],
    ),
    attribution_row(
        "attribution/pl-named",
        r"\b(?:napisał|napisała|napisał\(a\)|pisze)\s*[:：]$",
        AddressOrDate,
        &["20 lis 2026 10:00 pbem <pbem@example.net> napisał:"],
    ),
    attribution_row(
        "attribution/ru",
        r"\b(?:написал|написала|написал\(а\)|пишет)\s*[:：]$",
        AddressOrDate,
        &[
            "20.11.2026 10:00, pbem пишет:",
            "Пятница, 20 ноября 2026, 10:00 +00:00 пользователь pbem <pbem@example.net> написал(а):",
        ],
    ),
    attribution_row(
        "attribution/uk",
        r"\b(?:написав|написала|написав\(ла\)|пише)\s*[:：]$",
        AddressOrDate,
        &["пт, 20 лист. 2026 р. о 10:00 pbem <pbem@example.net> написав:"],
    ),
    attribution_row(
        "attribution/cs-named",
        r"\bnapsal(?:a|\(a\))?\s*[:：]$",
        AddressOrDate,
        &["pbem <pbem@example.net> napsal(a):"],
    ),
    attribution_row(
        "attribution/zh",
        r"(?:写道|寫道)\s*[:：]$",
        AddressOrDate,
        &["pbem <pbem@example.net> 于2026年11月20日周五 10:00写道："],
    ),
    attribution_row(
        "attribution/ja",
        r"のメッセージ\s*[:：]$",
        AddressOrDate,
        &["2026/11/20 10:00、pbem <pbem@example.net> のメッセージ:"],
    ),
    attribution_row(
        "attribution/ko",
        r"작성\s*[:：]$",
        AddressOrDate,
        &["2026. 11. 20. 오전 10:00, pbem <pbem@example.net>님이 작성:"],
    ),
    // The colon right after the address (or mutt's bracketed date): a
    // sentence that ends `... pbem+x@example.net (keep it private:` is
    // none.
    attribution_row(
        "attribution/no-verb",
        r"(?:>|@[\w.-]+|\])\s*[:：]$",
        AddressAndDate,
        &[
            "пт, 20 нояб. 2026 г. в 10:00, pbem <pbem@example.net>:",
            "2026年11月20日(金) 10:00 pbem <pbem@example.net>:",
            "Пятница, 20 ноября 2026, 10:00 +00:00 от pbem <pbem@example.net>:",
            "20.11.2026, 10:00, \"pbem\" <pbem@example.net>:",
            "2026-11-20 10:00 GMT+01:00 pbem <pbem@example.net>:",
            "* pbem <pbem@example.net> [2026-11-20 10:00]:",
        ],
    ),
    // ---- Signatures and "sent from" lines, whole lines only; the device
    // or app named in them holds no `:;!?<>`, so that a sentence holding
    // the words and a command (`Sent from my phone: 22-15`) is no signature.
    row(
        "signature/dashes",
        Signature,
        r"^(?:--|__)$",
        &["-- ", "--", "__"],
    ),
    row(
        "signature/en",
        Signature,
        r"^(?:sent from (?:my |yahoo mail|mail for windows|outlook|aol|samsung|the mail app)[^:;!?<>]{0,60}|get outlook for (?:ios|android|mac))$",
        &[
            "Sent from my iPhone",
            "Sent from my Galaxy",
            "Sent from my Samsung Galaxy smartphone.",
            "Sent from Yahoo Mail for iPhone",
            "Sent from Yahoo Mail on Android",
            "Sent from Mail for Windows",
            "Get Outlook for iOS",
            "Get Outlook for Android",
        ],
    ),
    row(
        "signature/de",
        Signature,
        r"^(?:gesendet (?:von|mit|vom) [^:;!?<>]{1,60}|von meinem [^:;!?<>]{1,60} gesendet|outlook für (?:ios|android) beziehen)$",
        &["Gesendet von meinem iPhone", "Von meinem iPhone gesendet"],
    ),
    row(
        "signature/fr",
        Signature,
        r"^(?:envoyé (?:de mon|depuis|à partir de) [^:;!?<>]{1,60}|télécharger outlook pour (?:ios|android))$",
        &["Envoyé de mon iPhone", "Télécharger Outlook pour Android"],
    ),
    row(
        "signature/es",
        Signature,
        r"^(?:enviado desde [^:;!?<>]{1,60}|obtener outlook para (?:ios|android))$",
        &["Enviado desde mi iPhone"],
    ),
    row(
        "signature/pt",
        Signature,
        r"^(?:enviado (?:do|de) (?:meu )?[^:;!?<>]{1,60}|obter o outlook para (?:ios|android))$",
        &["Enviado do meu iPhone"],
    ),
    row(
        "signature/it",
        Signature,
        r"^(?:inviato da [^:;!?<>]{1,60}|scarica outlook per (?:ios|android))$",
        &["Inviato da iPhone", "Inviato da Posta per Windows"],
    ),
    row(
        "signature/nl",
        Signature,
        r"^(?:verstuurd|verzonden) (?:vanaf|met|van) [^:;!?<>]{1,60}$",
        &[
            "Verstuurd vanaf mijn iPhone",
            "Verzonden vanaf Outlook voor Android",
        ],
    ),
    row(
        "signature/sv",
        Signature,
        r"^skickat från [^:;!?<>]{1,60}$",
        &["Skickat från min iPhone"],
    ),
    row(
        "signature/da-no",
        Signature,
        r"^sendt fra [^:;!?<>]{1,60}$",
        &["Sendt fra min iPhone"],
    ),
    row(
        "signature/fi",
        Signature,
        r"^lähetetty [^:;!?<>]{1,60}(?:sta|stä)$",
        &["Lähetetty iPhonesta"],
    ),
    row(
        "signature/pl",
        Signature,
        r"^wysłane z [^:;!?<>]{1,60}$",
        &["Wysłane z iPhone'a", "Wysłane z mojego smartfona Galaxy"],
    ),
    row(
        "signature/ru",
        Signature,
        r"^отправлено (?:с|со|из) [^:;!?<>]{1,60}$",
        &[
            "Отправлено с iPhone",
            "Отправлено из мобильной Почты Mail.ru",
        ],
    ),
    row(
        "signature/uk",
        Signature,
        r"^надіслано (?:з|із) [^:;!?<>]{1,60}$",
        &["Надіслано з iPhone"],
    ),
    row(
        "signature/cs",
        Signature,
        r"^odesláno z [^:;!?<>]{1,60}$",
        &["Odesláno z iPhonu"],
    ),
    row(
        "signature/tr",
        Signature,
        r"^[^:;!?<>]{1,40}(?:d[ae]n|t[ae]n) gönderildi$",
        &[
            "iPhone'umdan gönderildi",
            "Samsung Galaxy cihazımdan gönderildi",
        ],
    ),
    row(
        "signature/ja",
        Signature,
        r"^[^:;!?<>]{1,40}から送信$",
        &["iPhoneから送信"],
    ),
    row(
        "signature/zh",
        Signature,
        r"^(?:从我的[^:;!?<>]{1,40}发送|發自我的[^:;!?<>]{1,40}|发自我的[^:;!?<>]{1,40}|從我的[^:;!?<>]{1,40}傳送)$",
        &["从我的iPhone发送", "發自我的 iPhone"],
    ),
];
