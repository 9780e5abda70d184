# Terminal clients for scripts/client-replies (sourced by it): each runs in
# tmux on a fresh HOME, the driver reads its screen (capture-pane) and types
# (send-keys). Uses from the caller: $work (the run folder, with the editor
# and sendmail scripts and Alice's Maildir), $mail_file, tm, save_fixture.

# The rc files, per client and variant; $1 the run folder.
rc_mutt() {
    local run=$1 variant=$2
    cat > "$run/muttrc" <<RC
set from="Alice Example <alice@example.org>"
set use_from=yes
set realname="Alice Example"
set hostname=example.org
set sendmail="$work/sendmail"
set editor="$work/editor"
set reply_to=yes
set fast_reply=yes
set include=yes
set edit_headers=no
set copy=no
set record=""
set postpone=no
set mbox_type=Maildir
set folder="$run"
set spoolfile="$run/Maildir"
set move=no
set charset=utf-8
set send_charset="us-ascii:utf-8"
RC
    case $variant in
        bar) echo 'set indent_string="| "' >> "$run/muttrc" ;;
        flowed) echo 'set text_flowed=yes' >> "$run/muttrc" ;;
    esac
}
rc_snail() {
    local run=$1 variant=$2
    cat > "$run/home/.mailrc" <<RC
set from="Alice Example <alice@example.org>"
set hostname=example.org
set mta="$work/sendmail"
set EDITOR="$work/editor"
set VISUAL="$work/editor"
set quote
set editalong
set reply-to-honour=yes
unset askcc askbcc asksub askattach askatend
set ttycharset=utf-8
RC
    case $variant in
        # A real TAB between the quotes (this s-nail reads no $'\t').
        tab) printf 'set indentprefix="\t"\n' >> "$run/home/.mailrc" ;;
    esac
}
# pbem's mail as the one message of an mbox (the clients without Maildir).
mbox_of_mail() {
    { echo "From pbem@example.net Thu Nov 19 11:33:00 2026"
      sed 's/^From />From /' "$mail_file"; echo; } > "$1"
}
rc_alpine() {
    local run=$1 variant=$2
    mbox_of_mail "$run/inbox.mbox"
    cat > "$run/pinerc" <<RC
personal-name=Alice Example
user-domain=example.org
inbox-path=$run/inbox.mbox
sendmail-path=$work/sendmail
editor=$work/editor
customized-hdrs=From: Alice Example <alice@example.org>
feature-list=enable-alternate-editor-implicitly,include-text-in-reply,quit-without-confirm,disable-save-input-history
default-fcc=""
postponed-folder=""
last-version-used=2.26
RC
    case $variant in
        initials) echo 'reply-indent-string=_INIT_> ' >> "$run/pinerc" ;;
    esac
}
# bsd-mailx: the system's /etc/mail.rc as Debian ships it (ask, askcc, dot,
# crt; its ignore list hides Message-Id and Received from `~m`), the
# user's own address and the capturing sendmail in ~/.mailrc.
rc_bsd_mailx() {
    local run=$1
    mbox_of_mail "$run/inbox.mbox"
    cat > "$run/home/.mailrc" <<RC
set from="Alice Example <alice@example.org>"
set sendmail="$work/sendmail"
RC
}
# GNU mailutils' mail: it writes no From: of its own (the MTA would);
# `sendheader` gives it Alice's, as a user sets it up.
rc_mailutils() {
    local run=$1
    cat > "$run/home/.mailrc" <<RC
sendheader From "Alice Example <alice@example.org>"
set return-address="alice@example.org"
set sendmail="sendmail://$work/sendmail"
alternates alice@example.org
RC
}

# nmh: an MH profile (pbem's mail as message 1 of +inbox), the capturing
# sendmail through $MHMTSCONF, an editor that knows the draft's
# "--------" line between the headers and the body.
rc_nmh() {
    local run=$1
    mkdir -p "$run/home/Mail/inbox"
    cp "$mail_file" "$run/home/Mail/inbox/1"
    echo 'Current-Folder: inbox' > "$run/home/Mail/context"
    cat > "$run/home/.mh_profile" <<RC
Path: Mail
Editor: $work/nmh-editor
Local-Mailbox: Alice Example <alice@example.org>
RC
    printf 'mts: sendmail/pipe\nsendmail: %s\n' "$work/sendmail" > "$run/mts.conf"
}
# aerc: one account on a Maildir (pbem's mail in INBOX), the capturing
# sendmail as its outgoing command, the editor script.
rc_aerc() {
    local run=$1
    mkdir -p "$run/mail" "$run/home/.config/aerc"
    mv "$run/Maildir" "$run/mail/INBOX"
    cat > "$run/home/.config/aerc/accounts.conf" <<RC
[alice]
source = maildir://$run/mail
outgoing = $work/sendmail
default = INBOX
from = Alice Example <alice@example.org>
copy-to =
RC
    chmod 600 "$run/home/.config/aerc/accounts.conf"
    printf '[compose]\neditor = %s\n' "$work/editor" > "$run/home/.config/aerc/aerc.conf"
}
# Emacs: rmail on an mbox, Alice's name and address, sendmail-send-it
# through the capturing sendmail; the variant picks the composer:
# message-mode (the default mail-user-agent) or the older mail-mode.
rc_emacs() {
    local run=$1 variant=$2
    mbox_of_mail "$run/inbox.mbox"
    cat > "$run/home/.emacs" <<RC
(setq user-full-name "Alice Example"
      user-mail-address "alice@example.org"
      send-mail-function 'sendmail-send-it
      message-send-mail-function 'message-send-mail-with-sendmail
      sendmail-program "$work/sendmail"
      inhibit-startup-screen t)
RC
    [ "$variant" = mail-mode ] && echo "(setq mail-user-agent 'sendmail-user-agent)" >> "$run/home/.emacs"
    return 0
}

# The screen of session $1 (tmux).
screen_of() { tm capture-pane -p -t "$1"; }

# Waits until session $1's screen matches the extended regex $2 (30 s).
wait_screen() {
    local s=$1 re=$2 n=0
    until screen_of "$s" | grep -Eq -- "$re"; do
        n=$((n + 1))
        if [ $n -gt 150 ]; then
            echo "   no \`$re\` on the screen after 30 s; the screen:" >&2
            screen_of "$s" | grep -v '^$' | tail -15 >&2
            return 1
        fi
        sleep 0.2
    done
}

# Types the line $2 into session $3 and presses Enter (literally: no key
# names; a `~m` is a tilde escape for the client, not for tmux).
type_line() { tm send-keys -t "$1" -l -- "$2"; tm send-keys -t "$1" Enter; }

# Answers the screens of mutt, neomutt, s-nail, alpine until the mail is
# captured (or 40 s pass).
drive_screens() {
    local s=$1 capture=$2 client=$3 screen last="" n=0 replied=no
    while [ ! -s "$capture" ]; do
        n=$((n + 1))
        if [ $n -gt 160 ]; then
            echo "   timed out; the screen:" >&2
            screen_of "$s" | grep -v '^$' | tail -15 >&2
            return 1
        fi
        sleep 0.25
        screen=$(screen_of "$s")
        [ "$screen" = "$last" ] && continue
        # Wait until the screen settles.
        sleep 0.3
        screen=$(screen_of "$s")
        last=$screen
        case $client in
            mutt | neomutt)
                if grep -q 'y:Send' <<<"$screen"; then tm send-keys -t "$s" y
                elif grep -q 'Include message in reply' <<<"$screen"; then tm send-keys -t "$s" y
                elif grep -q 'Reply to .*?' <<<"$screen"; then tm send-keys -t "$s" y
                elif [ $replied = no ] && grep -q 'r:Reply' <<<"$screen"; then
                    replied=yes; tm send-keys -t "$s" r
                fi ;;
            s-nail)
                if grep -q 'Send this message \[yes/no' <<<"$screen"; then tm send-keys -t "$s" yes Enter
                elif grep -q '(continue)' <<<"$screen"; then tm send-keys -t "$s" C-d
                elif [ $replied = no ] && grep -q '^? *$' <<<"$screen"; then
                    replied=yes; tm send-keys -t "$s" 'reply 1' Enter
                fi ;;
            nmh)
                if grep -q 'Press enter to continue' <<<"$screen"; then tm send-keys -t "$s" Enter
                elif grep -q 'Create folder' <<<"$screen"; then tm send-keys -t "$s" y Enter
                elif grep -q 'What now?' <<<"$screen"; then tm send-keys -t "$s" send Enter
                fi ;;
            aerc)
                if grep -q 'Send this email?' <<<"$screen"; then tm send-keys -t "$s" y
                elif [ $replied = no ] && grep -q 'INBOX.*pbem' <<<"$screen"; then
                    replied=yes; tm send-keys -t "$s" R q
                fi ;;
            alpine)
                if grep -q 'GREETING TEXT' <<<"$screen"; then tm send-keys -t "$s" e
                elif grep -q 'Creating subdirectory' <<<"$screen"; then tm send-keys -t "$s" Enter
                elif grep -q 'Use "Reply-To:" address' <<<"$screen"; then tm send-keys -t "$s" y
                elif grep -q 'Reply to all recipients' <<<"$screen"; then tm send-keys -t "$s" n
                elif grep -q 'Include original message' <<<"$screen"; then tm send-keys -t "$s" y
                elif grep -q 'Send message?' <<<"$screen"; then tm send-keys -t "$s" y
                elif grep -q 'Alternate editor done\|Message Text' <<<"$screen"; then tm send-keys -t "$s" C-x
                elif [ $replied = no ] && grep -q 'MESSAGE INDEX' <<<"$screen"; then
                    replied=yes; tm send-keys -t "$s" r
                fi ;;
        esac
    done
}

# The POSIX mailx family (bsd-mailx, mailutils): `r` at the prompt, then
# the text typed at the terminal as a user does, the tilde escape of the
# variant ($4: ~m, ~M, ~f, ~F or none) above or below it ($5), Ctrl-D to
# end, Enter at the Cc: prompt (Debian's mail.rc sets askcc).
drive_mailx() {
    local s=$1 capture=$2 text=$3 escape=$4 pos=$5 n=0
    wait_screen "$s" '^[&?] *$' || return 1
    type_line "$s" r
    wait_screen "$s" '^Subject: Re:' || return 1
    sleep 0.5
    if [ "$escape" = none ]; then
        type_line "$s" "$text"
    else
        if [ "$pos" = top ]; then type_line "$s" "$text"; type_line "$s" ""; fi
        type_line "$s" "$escape"
        wait_screen "$s" '^\(continue\)' || return 1
        if [ "$pos" = bottom ]; then type_line "$s" ""; type_line "$s" "$text"; fi
    fi
    sleep 0.3
    tm send-keys -t "$s" C-d
    while [ ! -s "$capture" ]; do
        n=$((n + 1))
        if [ $n -gt 150 ]; then
            echo "   not sent after 30 s; the screen:" >&2
            screen_of "$s" | grep -v '^$' | tail -15 >&2
            return 1
        fi
        if screen_of "$s" | grep -v '^$' | tail -1 | grep -Eq '^(Cc|Bcc): *$'; then
            tm send-keys -t "$s" Enter
            sleep 0.3
        fi
        sleep 0.2
    done
}

# Emacs: `r` in rmail, C-c C-y yanks the message, the text typed at the
# start of the body (C-c C-b in message-mode, C-c C-t in mail-mode) or at
# its end (M->), C-c C-c sends.
drive_emacs() {
    local s=$1 capture=$2 text=$3 variant=$4 pos=$5
    wait_screen "$s" 'RMAIL 1/1' || return 1
    tm send-keys -t "$s" r
    wait_screen "$s" '^--text follows this line--' || return 1
    tm send-keys -t "$s" C-c C-y
    # Both composers mark the yanked lines with "> ".
    wait_screen "$s" '^> ' || return 1
    local n=0
    if [ "$pos" = top ]; then
        if [ "$variant" = mail-mode ]; then tm send-keys -t "$s" C-c C-t
        else tm send-keys -t "$s" C-c C-b; fi
        tm send-keys -t "$s" -l -- "$text"; tm send-keys -t "$s" Enter Enter
    else
        tm send-keys -t "$s" M-'>'; tm send-keys -t "$s" Enter
        tm send-keys -t "$s" -l -- "$text"; tm send-keys -t "$s" Enter
    fi
    sleep 0.5
    tm send-keys -t "$s" C-c C-c
    n=0
    until [ -s "$capture" ]; do
        n=$((n + 1))
        if [ $n -gt 150 ]; then
            echo "   not sent after 30 s; the screen:" >&2
            screen_of "$s" | grep -v '^$' | tail -15 >&2
            return 1
        fi
        sleep 0.2
    done
}

# The tilde escape of a mailx variant.
mailx_escape() {
    case $1 in
        plain) echo none ;;
        quote) echo '~m' ;;
        quote-headers) echo '~M' ;;
        insert) echo '~f' ;;
        insert-headers) echo '~F' ;;
    esac
}

# What the user typed in a mailx variant, for the note.
mailx_keys() {
    local e
    e=$(mailx_escape "$1")
    if [ "$e" = none ]; then echo "\`r\` and the text typed at the terminal, Ctrl-D"
    else echo "\`r\`, the text and \`$e\` typed at the terminal, Ctrl-D"; fi
}

# One capture from a terminal client: client, variant, reply name,
# position, text, expectation.
capture_tty() {
    local client=$1 variant=$2 reply=$3 pos=$4 text=$5 expect=$6
    local name="$client-$variant-$reply" run="$work/run/$client-$variant-$reply"
    mkdir -p "$run/home"
    cp -a "$work/alice" "$run/Maildir"
    local cmd version how
    case $client in
        mutt | neomutt)
            rc_mutt "$run" "$variant"
            cmd="$client -n -F $run/muttrc -f $run/Maildir"
            version=$($client -v | sed -n 1p)
            how="$variant" ;;
        s-nail)
            rc_snail "$run" "$variant"
            cmd="s-nail -f maildir://$run/Maildir"
            version=$(s-nail -V)
            how="$variant" ;;
        alpine)
            rc_alpine "$run" "$variant"
            cmd="alpine -p $run/pinerc -i"
            version=$(alpine -v 2>&1 | sed -n 1p)
            how="$variant" ;;
        bsd-mailx)
            rc_bsd_mailx "$run"
            cmd="bsd-mailx -f $run/inbox.mbox"
            version="bsd-mailx $(dpkg-query -W -f='${Version}' bsd-mailx)"
            how="Debian's /etc/mail.rc, $(mailx_keys "$variant")" ;;
        mailutils)
            rc_mailutils "$run"
            cmd="mail.mailutils -f maildir://$run/Maildir"
            version=$(mail.mailutils --version | sed -n 1p)
            how="\`sendheader From\` in ~/.mailrc, $(mailx_keys "$variant")" ;;
        nmh)
            rc_nmh "$run"
            cmd="repl 1"
            [ "$variant" = filter ] && cmd="repl -filter mhl.reply 1"
            version="nmh $(dpkg-query -W -f='${Version}' nmh)"
            how=$( [ "$variant" = filter ] && echo "\`$cmd\`, quoting with mhl.reply" ||
                   echo "\`$cmd\`, nmh's default: no quote")
            how="$how, What now? send" ;;
        aerc)
            rc_aerc "$run"
            cmd=aerc
            version=$(aerc -v 2>&1 | sed -n 1p)
            how="Rq (:reply -q), y to send" ;;
        emacs)
            rc_emacs "$run" "$variant"
            cmd="emacs -nw --eval '(rmail \"$run/inbox.mbox\")'"
            version=$(emacs --version | sed -n 1p)
            how="rmail, r, $( [ "$variant" = mail-mode ] && echo "mail-mode (mail-user-agent sendmail-user-agent)" ||
                echo "message-mode (the default)"), C-c C-y, the text typed, C-c C-c" ;;
    esac
    local capture="$run/sent.eml"
    # Emacs looks for the home of $USER in the password file: it has none.
    local user="USER=alice LOGNAME=alice"
    [ "$client" = emacs ] && user=
    echo "== $name"
    tm new-session -d -s "$name" -x 100 -y 45 \
        "env -i PATH=/usr/bin/mh:$PATH TERM=xterm-256color LANG=C.UTF-8 HOME=$run/home $user \
         MHMTSCONF=$run/mts.conf MAILRC=$run/home/.mailrc CAPTURE=$capture REPLY_POS=$pos REPLY_TEXT='$text' $cmd; sleep 60"
    local ok=yes
    case $client in
        bsd-mailx | mailutils)
            drive_mailx "$name" "$capture" "$text" "$(mailx_escape "$variant")" "$pos" || ok=no ;;
        emacs) drive_emacs "$name" "$capture" "$text" "$variant" "$pos" || ok=no ;;
        *) drive_screens "$name" "$capture" "$client" || ok=no ;;
    esac
    if [ $ok = yes ]; then
        local typed="\`$text\` $( [ "$pos" = top ] && echo above || echo below) the quote"
        local quote=
        [ "$variant" = plain ] && { typed="\`$text\` (no quote)"; quote=none; }
        save_fixture "$name" "$expect" "$version ($how), $typed" "$capture" "$quote"
    else
        failed+=("$name")
    fi
    tm kill-session -t "$name" 2>/dev/null || true
}

tty_variants() {
    case $1 in
        mutt) echo default bar ;;
        neomutt) echo default flowed ;;
        s-nail) echo default tab ;;
        alpine) echo default initials ;;
        bsd-mailx) echo plain quote quote-headers insert insert-headers ;;
        # mailutils' ~f and ~F only print the message (escape_print): they
        # insert nothing, so they make the plain reply again.
        mailutils) echo plain quote quote-headers ;;
        # nmh's repl quotes nothing unless given a filter.
        nmh) echo plain filter ;;
        aerc) echo default ;;
        emacs) echo message-mode mail-mode ;;
    esac
}

# Every variant of terminal client $1, each with the four replies (three
# without a quote: above and below are the same).
record_tty() {
    local client=$1 v
    for v in $(tty_variants "$client"); do
        if [ "$v" = plain ]; then
            capture_tty "$client" "$v" move top 13-21 "move 13-21"
        else
            capture_tty "$client" "$v" move-top top 13-21 "move 13-21"
            capture_tty "$client" "$v" move-bottom bottom 13-21 "move 13-21"
        fi
        capture_tty "$client" "$v" board top board board
        capture_tty "$client" "$v" chatter top "thanks, thinking about it" chatter
    done
}
