#!/usr/bin/env python3
"""A 60 KB server_name in one ClientHello against `tlslab serve --verbosity bytes` (issue #38
defect 12), then an ordinary TLS 1.2 request: prints one JSON object with how long the ordinary
client waited. Before the fix, serve rendered the huge hello's bytes view for ~6 s on the loop that
accepts connections, and the ordinary client waited that long. Only ever connects to 127.0.0.1.

    serve-big-hello.py PORT
"""
import json, os, socket, ssl, struct, sys, time

port = int(sys.argv[1])
name = b"a" * 60000
sni = struct.pack(">H", len(name) + 3) + b"\x00" + struct.pack(">H", len(name)) + name
ext = struct.pack(">HH", 0, len(sni)) + sni  # server_name (RFC 6066 §3)
body = b"\x03\x03" + os.urandom(32) + b"\x00" + b"\x00\x02\xc0\x2f" + b"\x01\x00" + struct.pack(">H", len(ext)) + ext
message = b"\x01" + len(body).to_bytes(3, "big") + body
records = b""
for i in range(0, len(message), 16384):
    fragment = message[i:i + 16384]
    records += b"\x16\x03\x01" + struct.pack(">H", len(fragment)) + fragment
big = socket.create_connection(("127.0.0.1", port), timeout=30)
big.sendall(records)
big.recv(100)  # the server's flight (or an alert): the hello was read
big.close()    # the connection ends: serve now renders it
time.sleep(0.05)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
context.maximum_version = ssl.TLSVersion.TLSv1_2
start = time.monotonic()
client = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=30), server_hostname="localhost")
client.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
answer = b""
while True:
    data = client.recv(65536)
    if not data:
        break
    answer += data
print(json.dumps({"seconds": round(time.monotonic() - start, 3), "status": answer.split(b"\r\n", 1)[0].decode(errors="replace")}))
