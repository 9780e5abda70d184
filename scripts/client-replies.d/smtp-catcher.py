#!/usr/bin/env python3
"""A one-folder SMTP catcher on loopback: every mail a client sends is
written, exactly as it came over the wire (CRLF, dot-unstuffed), to
OUT_DIR/N.eml. Prints nothing; writes the port it listens on to OUT_DIR/port.

    smtp-catcher.py OUT_DIR
"""
import os
import socket
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(4)
with open(os.path.join(out, "port.part"), "w") as f:
    f.write(str(srv.getsockname()[1]))
os.rename(os.path.join(out, "port.part"), os.path.join(out, "port"))
count = 0


def serve(conn):
    global count
    rf = conn.makefile("rb")

    def say(line):
        conn.sendall(line.encode() + b"\r\n")

    say("220 localhost ESMTP catcher")
    while True:
        line = rf.readline()
        if not line:
            return
        verb = line.split(b" ", 1)[0].strip().upper()
        if verb in (b"EHLO", b"HELO"):
            say("250-localhost")
            say("250-8BITMIME")
            say("250 SMTPUTF8")
        elif verb in (b"MAIL", b"RCPT", b"RSET", b"NOOP"):
            say("250 OK")
        elif verb == b"DATA":
            say("354 go on")
            data = bytearray()
            while True:
                l = rf.readline()
                if not l or l in (b".\r\n", b".\n"):
                    break
                if l.startswith(b"."):
                    l = l[1:]
                data += l
            count += 1
            path = os.path.join(out, "%d.eml" % count)
            with open(path + ".part", "wb") as f:
                f.write(data)
            os.rename(path + ".part", path)
            say("250 OK queued")
        elif verb == b"QUIT":
            say("221 bye")
            return
        else:
            say("502 not here")


while True:
    c, _ = srv.accept()
    try:
        serve(c)
    except OSError:
        pass
    finally:
        c.close()
