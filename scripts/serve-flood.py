#!/usr/bin/env python3
"""A hostile TLS 1.2 client (and TLS 1.2 / 1.3 handshakes by Python's ssl) for `tlslab serve`'s memory benchmark (issue #22; scripts/serve-memory.sh).

It sends what costs the server work but carries nothing, as many times as asked, and never more in a
row than serve's limits allow (4 warning alerts, 32 empty records: OpenSSL's numbers), so the server
keeps going and the benchmark measures whether its memory stays flat however long that lasts.

  handshake-warnings N   warning alerts in the clear during handshakes: each connection sends 4, a
                         ClientHello, 4 more (the most one handshake can take: a warning may not sit
                         between fragments of a handshake message) and a fifth that serve answers with
                         unexpected_message; then the next connection. Counts the ignored ones.
  warnings N             one connection: a full handshake (ECDHE-RSA-AES128-GCM-SHA256, ALPN h2), the
                         HTTP/2 preface and SETTINGS, then N encrypted warning alerts, each run of 4
                         followed by one record with an HTTP/2 WINDOW_UPDATE (a non-empty record that
                         is not an alert, which starts serve's warning count again).
  empty N                the same connection, N empty application-data records in runs of 32, each run
                         followed by a WINDOW_UPDATE record.

  handshakes-tls12 N     N full handshakes, one connection each, by Python's ssl module (OpenSSL) with
  handshakes-tls13 N     TLS 1.2 or TLS 1.3 as its only version: each sends GET / and reads the page,
                         then closes. Counts the connections that got the page over that version.

The handshake is written here from RFC 5246 with the `cryptography` package (X25519, AES-GCM, HMAC):
nothing of TLSLab's. The server's signature and Finished are not checked (a benchmark, not a client).
Usage: serve-flood.py PORT MODE N [--workers W]   (prints one JSON line of what was sent)
"""
import hashlib
import hmac
import json
import os
import socket
import struct
import sys
import time
from multiprocessing import Pool

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives import serialization

TLS12 = b"\x03\x03"
WARNING_USER_CANCELED = b"\x01\x5a"  # RFC 5246 §7.2: level warning(1), user_canceled(90)


def record(content_type, body, version=TLS12):
    return bytes([content_type]) + version + struct.pack(">H", len(body)) + body


def handshake(msg_type, body):
    return bytes([msg_type]) + struct.pack(">I", len(body))[1:] + body


def ext(kind, body):
    return struct.pack(">HH", kind, len(body)) + body


def client_hello(random, suites, alpn=None):
    extensions = ext(10, struct.pack(">HH", 2, 29))  # supported_groups: x25519
    extensions += ext(11, b"\x01\x00")  # ec_point_formats: uncompressed
    extensions += ext(13, struct.pack(">HHH", 4, 0x0804, 0x0401))  # signature_algorithms
    if alpn:
        names = b"".join(bytes([len(n)]) + n for n in alpn)
        extensions += ext(16, struct.pack(">H", len(names)) + names)
    suite_bytes = b"".join(struct.pack(">H", s) for s in suites)
    body = TLS12 + random + b"\x00" + struct.pack(">H", len(suite_bytes)) + suite_bytes + b"\x01\x00"
    body += struct.pack(">H", len(extensions)) + extensions
    return handshake(1, body)


def prf(secret, label, seed, length):
    """RFC 5246 §5: P_SHA256(secret, label + seed)."""
    seed = label + seed
    out, a = b"", seed
    while len(out) < length:
        a = hmac.new(secret, a, hashlib.sha256).digest()
        out += hmac.new(secret, a + seed, hashlib.sha256).digest()
    return out[:length]


class Reader:
    def __init__(self, sock):
        self.sock, self.buffer = sock, b""

    def record(self):
        while True:
            if len(self.buffer) >= 5:
                length = struct.unpack(">H", self.buffer[3:5])[0]
                if len(self.buffer) >= 5 + length:
                    head, body = self.buffer[:5], self.buffer[5:5 + length]
                    self.buffer = self.buffer[5 + length:]
                    return head[0], body
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection")
            self.buffer += chunk


class Connection:
    """A TLS 1.2 connection with ECDHE-RSA-AES128-GCM-SHA256 (RFC 5289, RFC 5288)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = Reader(self.sock)
        client_random = os.urandom(32)
        hello = client_hello(client_random, [0xC02F], alpn=[b"h2"])
        transcript = hello
        self.sock.sendall(record(22, hello, b"\x03\x01"))
        messages, stream = [], b""
        while not messages or messages[-1][0] != 14:  # until ServerHelloDone
            kind, body = reader.record()
            if kind == 21:
                raise RuntimeError(f"alert from the server: {body.hex()}")
            stream += body
            while len(stream) >= 4 and len(stream) >= 4 + int.from_bytes(stream[1:4], "big"):
                n = 4 + int.from_bytes(stream[1:4], "big")
                messages.append((stream[0], stream[4:n]))
                transcript += stream[:n]
                stream = stream[n:]
        server_hello = next(b for t, b in messages if t == 2)
        server_random = server_hello[2:34]
        ske = next(b for t, b in messages if t == 12)
        assert ske[0] == 3 and ske[1:3] == b"\x00\x1d", "expected an x25519 ServerKeyExchange"
        server_public = ske[4:4 + ske[3]]
        key = X25519PrivateKey.generate()
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey
        premaster = key.exchange(X25519PublicKey.from_public_bytes(server_public))
        public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        cke = handshake(16, bytes([len(public)]) + public)
        transcript += cke
        master = prf(premaster, b"master secret", client_random + server_random, 48)
        block = prf(master, b"key expansion", server_random + client_random, 40)
        self.write_key, self.read_key = AESGCM(block[0:16]), AESGCM(block[16:32])
        self.write_salt, self.read_salt = block[32:36], block[36:40]
        self.write_seq = 0
        self.alerts = []
        verify = prf(master, b"client finished", hashlib.sha256(transcript).digest(), 12)
        self.sock.sendall(record(22, cke) + record(20, b"\x01") + self.seal(22, handshake(20, verify)))
        # The server's ChangeCipherSpec and Finished (not checked); anything else is left unread.
        kind, _ = reader.record()
        assert kind == 20, f"expected ChangeCipherSpec, got {kind}"
        kind, _ = reader.record()
        assert kind == 22, f"expected Finished, got {kind}"
        self.reader, self.read_seq, self.received = reader, 1, b""

    def absorb(self, data):
        """Decrypts every whole record in the bytes read so far; application data is kept."""
        self.reader.buffer += data
        buffer = self.reader.buffer
        while len(buffer) >= 5 and len(buffer) >= 5 + struct.unpack(">H", buffer[3:5])[0]:
            length = struct.unpack(">H", buffer[3:5])[0]
            kind, body = buffer[0], buffer[5:5 + length]
            buffer = buffer[5 + length:]
            aad = struct.pack(">Q", self.read_seq) + bytes([kind]) + TLS12 + struct.pack(">H", length - 24)
            plaintext = self.read_key.decrypt(self.read_salt + body[:8], body[8:], aad)
            self.read_seq += 1
            if kind == 23:
                self.received += plaintext
            elif kind == 21:
                self.alerts.append(plaintext.hex())
        self.reader.buffer = buffer

    def seal(self, content_type, plaintext):
        explicit = struct.pack(">Q", self.write_seq)
        aad = explicit + bytes([content_type]) + TLS12 + struct.pack(">H", len(plaintext))
        sealed = self.write_key.encrypt(self.write_salt + explicit, plaintext, aad)
        self.write_seq += 1
        return record(content_type, explicit + sealed)


def drain(conn):
    """Reads what the server sent so far without waiting (its SETTINGS, ACKs): it never blocks writing."""
    conn.sock.setblocking(False)
    try:
        while True:
            chunk = conn.sock.recv(65536)
            if not chunk:
                break
            conn.absorb(chunk)
    except (BlockingIOError, InterruptedError):
        pass
    finally:
        conn.sock.setblocking(True)


def flood(port, mode, total):
    conn = Connection(port)
    preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
    conn.sock.sendall(conn.seal(23, preface))
    window_update = b"\x00\x00\x04\x08\x00\x00\x00\x00\x00\x00\x00\x00\x01"  # stream 0, increment 1
    run = 4 if mode == "warnings" else 32
    sent = resets = 0
    batch = []
    while sent < total:
        n = min(run, total - sent)
        for _ in range(n):
            batch.append(conn.seal(21, WARNING_USER_CANCELED) if mode == "warnings" else conn.seal(23, b""))
        sent += n
        batch.append(conn.seal(23, window_update))
        resets += 1
        if len(batch) >= 2048:
            conn.sock.sendall(b"".join(batch))
            batch = []
            drain(conn)
    conn.sock.sendall(b"".join(batch))
    # Still served? A PING must come back acknowledged after all of it.
    conn.sock.sendall(conn.seal(23, b"\x00\x00\x08\x06\x00\x00\x00\x00\x00" + b"tlslab!!"))
    conn.sock.settimeout(60)
    ack = b"\x00\x00\x08\x06\x01\x00\x00\x00\x00" + b"tlslab!!"  # PING with ACK, the same opaque data
    while ack not in conn.received:
        try:
            chunk = conn.sock.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        conn.absorb(chunk)
    conn.sock.close()
    return {"mode": mode, "records": sent, "resets": resets, "ping_answered_after": ack in conn.received,
            "alerts_from_server": conn.alerts}


def handshake_connection(args):
    port, count = args
    ignored = 0
    hello = record(22, client_hello(os.urandom(32), [0x009C]), b"\x03\x01")  # TLS_RSA_WITH_AES_128_GCM_SHA256
    warning = record(21, WARNING_USER_CANCELED)
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(warning * 4 + hello + warning * 5)
        answer = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        # RST, not FIN: no TIME_WAIT left behind by 10^5 connections.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
        # The fifth warning after the ClientHello is answered with fatal unexpected_message (21 … 02 0a).
        if answer[-2:] == b"\x02\x0a":
            ignored += 8
    return ignored


def ssl_handshakes(args):
    """`count` connections with Python's ssl at one version: the page read, then closed."""
    import ssl
    port, version, count = args
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # a benchmark of the server's memory, not of trust
    context.minimum_version = context.maximum_version = version
    served = 0
    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port)) as raw, context.wrap_socket(raw, server_hostname="localhost") as tls:
            tls.sendall(b"GET / HTTP/1.0\r\n\r\n")
            page = b""
            while True:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                page += chunk
            if page.startswith(b"HTTP/1.1 200") and tls.version() == ("TLSv1.3" if version == ssl.TLSVersion.TLSv1_3 else "TLSv1.2"):
                served += 1
    return served


def main():
    port, mode, total = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    workers = int(sys.argv[sys.argv.index("--workers") + 1]) if "--workers" in sys.argv else 4
    started = time.time()
    if mode == "handshake-warnings":
        connections = -(-total // 8)
        shares = [connections // workers + (1 if i < connections % workers else 0) for i in range(workers)]
        with Pool(workers) as pool:
            ignored = sum(pool.map(handshake_connection, [(port, s) for s in shares]))
        result = {"mode": mode, "connections": connections, "warnings_ignored": ignored}
    elif mode in ("handshakes-tls12", "handshakes-tls13"):
        import ssl
        version = ssl.TLSVersion.TLSv1_3 if mode.endswith("13") else ssl.TLSVersion.TLSv1_2
        shares = [total // workers + (1 if i < total % workers else 0) for i in range(workers)]
        with Pool(workers) as pool:
            served = sum(pool.map(ssl_handshakes, [(port, version, s) for s in shares]))
        result = {"mode": mode, "connections": total, "pages_over_that_version": served}
    else:
        result = flood(port, mode, total)
    result["seconds"] = round(time.time() - started, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
