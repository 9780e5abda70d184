# Desktop clients for scripts/client-replies (sourced by it): a real window
# on our own Xvfb display, driven with xdotool (keys through XTEST to the
# focused window). Every step waits on a condition -- a window with a
# title, a captured file -- with a generous deadline. Uses from the
# caller: $work, $lib, started_pids, save_fixture, failed.

# Our own X display (Xvfb picks a free number), once.
gui_display() {
    [ -n "${GUI_DISPLAY:-}" ] && return 0
    local fifo="$work/xvfb.display"
    mkfifo "$fifo"
    Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$fifo" 2>"$work/xvfb.log" &
    started_pids+=($!)
    local n
    read -r -t 30 n <"$fifo" || { echo "Xvfb did not start" >&2; return 1; }
    GUI_DISPLAY=":$n"
}

# The SMTP catcher the desktop clients send through, once: each mail lands
# in $work/caught/N.eml as it came over the wire.
gui_catcher() {
    [ -n "${CATCHER_PORT:-}" ] && return 0
    python3 "$lib/smtp-catcher.py" "$work/caught" &
    started_pids+=($!)
    local n=0
    until [ -s "$work/caught/port" ]; do
        n=$((n + 1)); [ $n -le 150 ] || { echo "the SMTP catcher did not start" >&2; return 1; }
        sleep 0.2
    done
    CATCHER_PORT=$(cat "$work/caught/port")
}

x() { DISPLAY=$GUI_DISPLAY xdotool "$@"; }

# Waits (60 s) for a visible window whose title matches $1; prints its id.
gui_window() {
    DISPLAY=$GUI_DISPLAY timeout 60 xdotool search --sync --onlyvisible --name "$1" 2>/dev/null | head -1
}

# Waits (60 s) for the catcher's next mail, $1; true when it came.
gui_caught() {
    local n=0
    until [ -s "$1" ]; do
        n=$((n + 1)); [ $n -le 300 ] || return 1
        sleep 0.2
    done
}

# Ends process $1 (one we started) and waits for it to go.
gui_end() {
    local pid=$1 n=0
    kill "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null; do
        n=$((n + 1))
        if [ $n -gt 100 ]; then kill -9 "$pid" 2>/dev/null || true; break; fi
        sleep 0.2
    done
    wait "$pid" 2>/dev/null || true
}

# ----------------------------------------------------------- Thunderbird
# A fresh profile: Alice's account (a POP3 account that is never checked,
# so nothing leaves the machine), her identity with the compose mode ($2:
# html or plain) and reply position ($3: 1 top, 0 bottom), the catcher as
# its SMTP server, and no first-run wizard, default-client check, update
# or telemetry.
thunderbird_profile() {
    local prof=$1 html=$2 on_top=$3
    mkdir -p "$prof"
    cat > "$prof/prefs.js" <<PREFS
user_pref("mail.accountmanager.accounts", "account1,account2");
user_pref("mail.accountmanager.defaultaccount", "account1");
user_pref("mail.accountmanager.localfoldersserver", "server2");
user_pref("mail.account.account1.identities", "id1");
user_pref("mail.account.account1.server", "server1");
user_pref("mail.account.account2.server", "server2");
user_pref("mail.identity.id1.fullName", "Alice Example");
user_pref("mail.identity.id1.useremail", "alice@example.org");
user_pref("mail.identity.id1.smtpServer", "smtp1");
user_pref("mail.identity.id1.compose_html", $( [ "$html" = html ] && echo true || echo false ));
user_pref("mail.identity.id1.reply_on_top", $on_top);
user_pref("mail.identity.id1.fcc", false);
user_pref("mail.identity.id1.valid", true);
user_pref("mail.server.server1.type", "pop3");
user_pref("mail.server.server1.hostname", "127.0.0.1");
user_pref("mail.server.server1.port", 9);
user_pref("mail.server.server1.userName", "alice");
user_pref("mail.server.server1.name", "alice@example.org");
user_pref("mail.server.server1.directory-rel", "[ProfD]Mail/pop");
user_pref("mail.server.server1.login_at_startup", false);
user_pref("mail.server.server1.check_new_mail", false);
user_pref("mail.server.server2.type", "none");
user_pref("mail.server.server2.hostname", "Local Folders");
user_pref("mail.server.server2.name", "Local Folders");
user_pref("mail.server.server2.userName", "nobody");
user_pref("mail.server.server2.directory-rel", "[ProfD]Mail/Local Folders");
user_pref("mail.smtpservers", "smtp1");
user_pref("mail.smtp.defaultserver", "smtp1");
user_pref("mail.smtpserver.smtp1.hostname", "127.0.0.1");
user_pref("mail.smtpserver.smtp1.port", $CATCHER_PORT);
user_pref("mail.smtpserver.smtp1.authMethod", 1);
user_pref("mail.smtpserver.smtp1.try_ssl", 0);
user_pref("mail.shell.checkDefaultClient", false);
user_pref("mail.spotlight.firstRunDone", true);
user_pref("mail.winsearch.firstRunDone", true);
user_pref("mailnews.start_page.enabled", false);
user_pref("mailnews.start_page_override.mstone", "ignore");
user_pref("mail.rights.version", 1);
user_pref("mail.provider.enabled", false);
user_pref("mail.warn_on_send_accel_key", false);
user_pref("mail.inappnotifications.enabled", false);
user_pref("app.update.enabled", false);
user_pref("app.update.auto", false);
user_pref("extensions.update.enabled", false);
user_pref("app.normandy.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.policy.dataSubmissionPolicyBypassNotification", true);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("toolkit.startup.max_resumed_crashes", -1);
PREFS
}

# One Thunderbird reply: variant (html, plain), reply name, reply_on_top,
# text, expectation. Thunderbird opens pbem's mail (the .eml the harness
# wrote), Ctrl+R, the text typed where Thunderbird put the caret (above the
# quote or below it, by the pref), Ctrl+Return sends it to the catcher.
capture_thunderbird() {
    local variant=$1 reply=$2 on_top=$3 text=$4 expect=$5
    local name="thunderbird-$variant-$reply" run="$work/run/thunderbird-$variant-$reply"
    echo "== $name"
    mkdir -p "$run/home"
    thunderbird_profile "$run/profile" "$variant" "$on_top"
    cp "$work/alice.eml" "$run/pbem.eml"
    local next=$(( $(find "$work/caught" -name '*.eml' | wc -l) + 1 ))
    local caught="$work/caught/$next.eml" tb ok=no w
    env -i PATH="$PATH" HOME="$run/home" LANG=C.UTF-8 DISPLAY="$GUI_DISPLAY" \
        thunderbird --profile "$run/profile" --no-remote "$run/pbem.eml" \
        >"$run/thunderbird.log" 2>&1 &
    tb=$!
    started_pids+=("$tb")
    if w=$(gui_window '^\[pbem bz-test1\].* - Mozilla Thunderbird$') && [ -n "$w" ]; then
        x windowfocus --sync "$w"
        x key --clearmodifiers ctrl+r
        if w=$(gui_window '^Write: Re: ') && [ -n "$w" ]; then
            # The editor fills in the quote after the window shows.
            sleep 2
            x windowfocus --sync "$w"
            x type --delay 40 "$text"
            sleep 0.5
            x key --clearmodifiers ctrl+Return
            gui_caught "$caught" && grep -qF "$text" "$caught" && ok=yes
        fi
    fi
    if [ $ok = yes ]; then
        local version mode where
        version=$(thunderbird --version 2>/dev/null | sed -n 1p)
        mode=$( [ "$variant" = html ] && echo "HTML compose (compose_html=true, the default)" ||
                echo "plain-text compose (compose_html=false)")
        where=$( [ "$on_top" = 1 ] && echo "reply_on_top=1, \`$text\` typed above the quote" ||
                 echo "reply_on_top=0, \`$text\` typed below the quote")
        save_fixture "$name" "$expect" \
            "$version under Xvfb ($mode, $where; Ctrl+R on pbem's mail opened from its .eml, the text typed with xdotool, Ctrl+Return; as sent over SMTP, CRLF)" \
            "$caught"
    else
        echo "   no reply captured; the windows:" >&2
        x search --onlyvisible --name . getwindowname %@ >&2 2>/dev/null || true
        failed+=("$name")
    fi
    gui_end "$tb"
}

record_thunderbird() {
    gui_display && gui_catcher || { failed+=(thunderbird); return; }
    local v
    for v in html plain; do
        capture_thunderbird "$v" move-top 1 13-21 "move 13-21"
        capture_thunderbird "$v" move-bottom 0 13-21 "move 13-21"
        capture_thunderbird "$v" board 1 board board
        capture_thunderbird "$v" chatter 1 "thanks, thinking about it" chatter
    done
}

# --------------------------------------------- Claws Mail and Sylpheed
# Their config folder: Alice's account (POP3 never checked; the catcher
# as SMTP server), an MH mailbox with pbem's mail as inbox/1, no spell
# checker (it has no dictionary here and says so in a dialog).
gtkmail_config() {
    local client=$1 run=$2 cfg=$3 mail="$run/home/Mail" f
    mkdir -p "$cfg"
    for f in inbox sent queue trash draft; do mkdir -p "$mail/$f"; done
    cp "$mail_file" "$mail/inbox/1"
    cat > "$cfg/accountrc" <<RC
[Account: 1]
account_name=alice@example.org
is_default=1
name=Alice Example
address=alice@example.org
protocol=0
receive_server=127.0.0.1
set_popport=1
pop_port=9
user_id=alice
smtp_server=127.0.0.1
set_smtpport=1
smtp_port=$CATCHER_PORT
use_smtp_auth=0
ssl_pop=0
ssl_smtp=0
inbox=#mh/Mailbox/inbox
set_sent_folder=0
save_message=0
RC
    cat > "$cfg/folderlist.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<folderlist>
<folder type="mh" name="Mailbox" path="$mail" collapsed="0">
<folderitem type="inbox" name="inbox" path="inbox"/>
<folderitem type="outbox" name="sent" path="sent"/>
<folderitem type="queue" name="queue" path="queue"/>
<folderitem type="trash" name="trash" path="trash"/>
<folderitem type="draft" name="draft" path="draft"/>
</folder>
</folderlist>
XML
    case $client in
        claws-mail) printf '[Common]\nenable_aspell=0\n' > "$cfg/clawsrc" ;;
        sylpheed) printf '[Common]\ncheck_spell=0\n' > "$cfg/sylpheedrc" ;;
    esac
}

# One reply from Claws Mail or Sylpheed ($1): reply name, position, text,
# expectation. The client starts on pbem's mail, Reply, the caret to the
# start of the body (Ctrl+Home) or its end (Ctrl+End), the text typed,
# Send: the mail goes to the catcher.
capture_gtkmail() {
    local client=$1 reply=$2 pos=$3 text=$4 expect=$5
    local name="$client-default-$reply" run="$work/run/$client-default-$reply"
    echo "== $name"
    local cfg="$run/config" main
    gtkmail_config "$client" "$run" "$cfg"
    local next=$(( $(find "$work/caught" -name '*.eml' | wc -l) + 1 ))
    local caught="$work/caught/$next.eml" pid ok=no w
    case $client in
        claws-mail)
            env -i PATH="$PATH" HOME="$run/home" LANG=C.UTF-8 DISPLAY="$GUI_DISPLAY" \
                claws-mail --alternate-config-dir "$cfg" --select '#mh/Mailbox/inbox/1' \
                >"$run/client.log" 2>&1 &
            main=' - Claws Mail' ;;
        sylpheed)
            env -i PATH="$PATH" HOME="$run/home" LANG=C.UTF-8 DISPLAY="$GUI_DISPLAY" \
                sylpheed --configdir "$cfg" --open '#mh/Mailbox/inbox/1' \
                >"$run/client.log" 2>&1 &
            main='^\[pbem bz-test1\].* - Sylpheed$' ;;
    esac
    pid=$!
    started_pids+=("$pid")
    if w=$(gui_window "$main") && [ -n "$w" ]; then
        # The message is selected once the window is up; give it a moment
        # to show it.
        sleep 2
        x windowfocus --sync "$w"
        # Sylpheed's message window has no key for Reply: its menu has.
        if [ "$client" = sylpheed ]; then x key --clearmodifiers alt+m r
        else x key --clearmodifiers ctrl+r; fi
        if w=$(gui_window 'Compose message$|^Re: .* - Compose') && [ -n "$w" ]; then
            sleep 2
            x windowfocus --sync "$w"
            if [ "$pos" = top ]; then
                x key --clearmodifiers ctrl+Home
                x type --delay 40 "$text"
                x key Return Return
            else
                x key --clearmodifiers ctrl+End
                x key Return
                x type --delay 40 "$text"
            fi
            sleep 0.5
            if [ "$client" = sylpheed ]; then x key --clearmodifiers shift+ctrl+e
            else x key --clearmodifiers ctrl+Return; fi
            gui_caught "$caught" && grep -qF "$text" "$caught" && ok=yes
        fi
    fi
    if [ $ok = yes ]; then
        local version where keys="Ctrl+R" send="Ctrl+Return"
        [ "$client" = sylpheed ] && { keys="Message > Reply (Alt+M R) in its message window"; send="Shift+Ctrl+E"; }
        version=$("$client" --version 2>/dev/null | sed -n 1p)
        where=$( [ "$pos" = top ] && echo "Ctrl+Home, \`$text\` typed above the quote" ||
                 echo "Ctrl+End, \`$text\` typed below the quote")
        save_fixture "$name" "$expect" \
            "$version under Xvfb (its default quoting; $keys on pbem's mail in an MH inbox, $where with xdotool, $send; as sent over SMTP, CRLF)" \
            "$caught"
    else
        echo "   no reply captured; the windows:" >&2
        x search --onlyvisible --name . getwindowname %@ >&2 2>/dev/null || true
        failed+=("$name")
    fi
    gui_end "$pid"
}

record_gtkmail() {
    gui_display && gui_catcher || { failed+=("$1"); return; }
    capture_gtkmail "$1" move-top top 13-21 "move 13-21"
    capture_gtkmail "$1" move-bottom bottom 13-21 "move 13-21"
    capture_gtkmail "$1" board top board board
    capture_gtkmail "$1" chatter top "thanks, thinking about it" chatter
}

# ------------------------------------------------------------- D-Bus
# A private session bus for one client (GApplications register on it),
# config $1: the folders after it are those it may start services from,
# none for a client that needs no service (so no portal, keyring or
# accessibility bus is started). Prints the config file's path.
gui_bus_config() {
    local conf="$work/dbus-$1.conf" dirs="" d
    shift
    for d in "$@"; do dirs+="  <servicedir>$d</servicedir>"$'\n'; done
    cat > "$conf" <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
$dirs  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
    echo "$conf"
}

# Ends client $2 started under dbus-run-session $1: the client first
# (then the session ends its bus), and whatever of theirs is left, since
# the session, ended first, would leave them running.
gui_end_session() {
    local session=$1 child
    for child in $(pgrep -P "$session" -x "$2" || true) $(pgrep -P "$session" || true); do
        gui_end "$child"
    done
    gui_end "$session"
}

# ------------------------------------------------------------------ Balsa
# Its ~/.balsa/config: Maildirs for the five mailboxes it insists on, with
# pbem's mail new in the inbox; Alice's identity; the catcher as SMTP
# server with no TLS (Security 4: Balsa's default demands STARTTLS, which
# the catcher does not offer, and the mail would sit in the Outbox) and no
# login (Anonymous); no notice of its new user interface.
balsa_config() {
    local home=$1 mail="$1/Mail" box
    for box in inbox outbox sentbox draftbox trash; do mkdir -p "$mail/$box"/{cur,new,tmp}; done
    cp "$mail_file" "$mail/inbox/new/"
    mkdir -p "$home/.balsa"
    {
        printf '[Globals]\nMailDir=%s\n\n' "$mail"
        printf '[Notifications]\nGtkUIManager=true\n\n'
        printf '[smtp-server-catcher]\nServer=127.0.0.1:%s\nSecurity=4\nAnonymous=true\n\n' "$CATCHER_PORT"
        printf '[identity]\nCurrentIdentity=alice\n\n'
        printf '[identity-alice]\nFullName=Alice Example\nAddress=alice@example.org\nSmtpServer=catcher\n\n'
        for box in Inbox Outbox Sentbox Draftbox Trash; do
            printf '[mailbox-%s]\nType=LibBalsaMailboxLocal\nPath=%s/%s\nName=%s\n\n' \
                "$box" "$mail" "${box,,}" "$box"
        done
    } > "$home/.balsa/config"
}

# One Balsa reply: reply name, position, text, expectation. Balsa starts
# on its inbox with pbem's mail shown, `r` replies; the caret is in the
# recipients, so a click in the body, then Ctrl+Home or Ctrl+End, the
# text typed, Ctrl+Return sends it to the catcher at once.
capture_balsa() {
    local reply=$1 pos=$2 text=$3 expect=$4
    local name="balsa-default-$reply" run="$work/run/balsa-default-$reply"
    echo "== $name"
    balsa_config "$run/home"
    local next=$(( $(find "$work/caught" -name '*.eml' | wc -l) + 1 ))
    local caught="$work/caught/$next.eml" pid ok=no w
    env -i PATH="$PATH" HOME="$run/home" LANG=C.UTF-8 DISPLAY="$GUI_DISPLAY" NO_AT_BRIDGE=1 \
        dbus-run-session --config-file="$(gui_bus_config bare)" -- balsa --open-inbox \
        >"$run/client.log" 2>&1 &
    pid=$!
    started_pids+=("$pid")
    if w=$(gui_window '^Balsa: Inbox$') && [ -n "$w" ]; then
        # The session's children (Balsa, its bus) outlive the session
        # when it is ended first.
        started_pids+=($(pgrep -P "$pid" || true))
        # The mail is selected once the window is up: give it a moment.
        sleep 2
        x windowfocus --sync "$w"
        x key --clearmodifiers r
        if w=$(gui_window '^Reply to .*: Re: ') && [ -n "$w" ]; then
            sleep 2
            x windowfocus --sync "$w"
            x mousemove --window "$w" 300 400 click 1
            if [ "$pos" = top ]; then
                x key --clearmodifiers ctrl+Home
                x type --delay 40 "$text"
                x key Return Return
            else
                x key --clearmodifiers ctrl+End
                x key Return
                x type --delay 40 "$text"
            fi
            sleep 0.5
            x key --clearmodifiers ctrl+Return
            gui_caught "$caught" && grep -qF "$text" "$caught" && ok=yes
        fi
    fi
    if [ $ok = yes ]; then
        local version where
        version=$(balsa --version 2>/dev/null | sed -n 1p)
        where=$( [ "$pos" = top ] && echo "Ctrl+Home, \`$text\` typed above the quote" ||
                 echo "Ctrl+End, \`$text\` typed below the quote")
        save_fixture "$name" "$expect" \
            "$version under Xvfb (its default quoting and format=flowed; \`r\` on pbem's mail in a Maildir inbox, a click in the body, $where with xdotool, Ctrl+Return; as sent over SMTP, CRLF)" \
            "$caught"
    else
        echo "   no reply captured; the windows:" >&2
        x search --onlyvisible --name . getwindowname %@ >&2 2>/dev/null || true
        failed+=("$name")
    fi
    gui_end_session "$pid" balsa
}

record_balsa() {
    gui_display && gui_catcher || { failed+=(balsa); return; }
    capture_balsa move-top top 13-21 "move 13-21"
    capture_balsa move-bottom bottom 13-21 "move 13-21"
    capture_balsa board top board board
    capture_balsa chatter top "thanks, thinking about it" chatter
}

# -------------------------------------------------------------- Evolution
# Its evolution-data-server sources: Alice's account (no mail server: her
# mail is in "On This Computer"), her identity, the catcher as SMTP
# server with no TLS or login; pbem's mail new in the local Inbox (the
# top of the Maildir++ store mail/local); its settings in a keyfile (no dconf
# here): no default-mailer question, no prompt on Ctrl+Return, no junk
# filter run on the new mail, and no question when the reply to pbem's
# HTML mail turns to its plain-text composer (the answer a user of its
# default gives: it drops the HTML).
evolution_config() {
    local home=$1 src="$1/.config/evolution/sources" local="$1/.local/share/evolution/mail/local"
    # A local store without a Maildir Outbox is taken for an old mbox one
    # and Evolution asks to migrate it; ..maildir++ marks its folder naming.
    mkdir -p "$src" "$local"/{cur,new,tmp} "$local"/.Outbox/{cur,new,tmp} \
        "$home/.config/glib-2.0/settings"
    echo 'maildir++ 1' > "$local/..maildir++"
    cp "$mail_file" "$local/new/"
    printf '[Data Source]\nDisplayName=alice@example.org\nEnabled=true\nParent=\n\n[Mail Account]\nBackendName=none\nIdentityUid=alice-identity\nNeedsInitialSetup=false\n' \
        > "$src/alice-account.source"
    printf '[Data Source]\nDisplayName=alice@example.org\nEnabled=true\nParent=alice-account\n\n[Mail Identity]\nAddress=alice@example.org\nName=Alice Example\n\n[Mail Submission]\nTransportUid=alice-transport\n' \
        > "$src/alice-identity.source"
    printf '[Data Source]\nDisplayName=alice@example.org\nEnabled=true\nParent=alice-account\n\n[Mail Transport]\nBackendName=smtp\n\n[Authentication]\nHost=127.0.0.1\nPort=%s\nUser=\nMethod=\n\n[Security]\nMethod=none\n' \
        "$CATCHER_PORT" > "$src/alice-transport.source"
    printf '[org/gnome/evolution/mail]\nprompt-check-if-default-mailer=false\nprompt-on-accel-send=false\njunk-check-incoming=false\nprompt-on-composer-mode-switch=false\n' \
        > "$home/.config/glib-2.0/settings/keyfile"
}

# One Evolution reply: reply name, position, text, expectation. Evolution
# starts on its local Inbox with pbem's mail shown, on a D-Bus session
# that can start only evolution-data-server's services; Ctrl+R, a click
# in the body, Ctrl+Home or Ctrl+End, the text typed, Ctrl+Return sends
# it to the catcher.
capture_evolution() {
    local reply=$1 pos=$2 text=$3 expect=$4
    local name="evolution-default-$reply" run="$work/run/evolution-default-$reply"
    echo "== $name"
    evolution_config "$run/home"
    local next=$(( $(find "$work/caught" -name '*.eml' | wc -l) + 1 ))
    local caught="$work/caught/$next.eml" pid ok=no w
    env -i PATH="$PATH" HOME="$run/home" LANG=C.UTF-8 DISPLAY="$GUI_DISPLAY" NO_AT_BRIDGE=1 \
        GSETTINGS_BACKEND=keyfile \
        dbus-run-session --config-file="$(gui_bus_config eds "$work/dbus-eds")" -- \
        evolution -c mail folder://local/Inbox >"$run/client.log" 2>&1 &
    pid=$!
    started_pids+=("$pid")
    if w=$(gui_window '^Inbox') && [ -n "$w" ]; then
        started_pids+=($(pgrep -P "$pid" || true))
        # The unread mail is selected and shown once the folder loads.
        sleep 4
        x windowfocus --sync "$w"
        x key --clearmodifiers ctrl+r
        if w=$(gui_window '^Re: \[pbem ') && [ -n "$w" ]; then
            sleep 3
            x windowfocus --sync "$w"
            x mousemove --window "$w" 300 430 click 1
            if [ "$pos" = top ]; then
                x key --clearmodifiers ctrl+Home
                x type --delay 40 "$text"
                x key Return Return
            else
                x key --clearmodifiers ctrl+End
                x key Return
                x type --delay 40 "$text"
            fi
            sleep 0.5
            x key --clearmodifiers ctrl+Return
            gui_caught "$caught" && grep -qF "$text" "$caught" && ok=yes
        fi
    fi
    if [ $ok = yes ]; then
        local version where
        version=$(evolution --version 2>/dev/null | sed -n '1s/ *$//p')
        where=$( [ "$pos" = top ] && echo "Ctrl+Home, \`$text\` typed above the quote" ||
                 echo "Ctrl+End, \`$text\` typed below the quote")
        save_fixture "$name" "$expect" \
            "$version under Xvfb (its default plain-text composer and quoting; Ctrl+R on pbem's mail in its local Inbox, a click in the body, $where with xdotool, Ctrl+Return; as sent over SMTP, CRLF)" \
            "$caught"
    else
        echo "   no reply captured; the windows:" >&2
        x search --onlyvisible --name . getwindowname %@ >&2 2>/dev/null || true
        failed+=("$name")
    fi
    gui_end_session "$pid" evolution
}

record_evolution() {
    gui_display && gui_catcher || { failed+=(evolution); return; }
    mkdir -p "$work/dbus-eds"
    cp /usr/share/dbus-1/services/org.gnome.evolution.dataserver.*.service "$work/dbus-eds/"
    capture_evolution move-top top 13-21 "move 13-21"
    capture_evolution move-bottom bottom 13-21 "move 13-21"
    capture_evolution board top board board
    capture_evolution chatter top "thanks, thinking about it" chatter
}
