#!/usr/bin/env python3
"""Writes chacha20-records.json: TLS 1.2 ChaCha20-Poly1305 records (RFC 7905) built independently of
TLSLab, with Python's `cryptography` (its ChaCha20Poly1305 is OpenSSL's) and the standard library's
HMAC for the TLS PRF (RFC 5246 §5). Run: python3 chacha20-records.py > chacha20-records.json"""
import hashlib, hmac, json, struct
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
import cryptography

def p_sha256(secret, seed, n):
    out, a = b"", seed
    while len(out) < n:
        a = hmac.new(secret, a, hashlib.sha256).digest()
        out += hmac.new(secret, a + seed, hashlib.sha256).digest()
    return out[:n]

def prf(secret, label, seed, n):
    return p_sha256(secret, label + seed, n)

master = bytes(range(0x30, 0x60))                    # 48 bytes
client_random = bytes(range(0x00, 0x20))
server_random = bytes(range(0xa0, 0xc0))
# RFC 5246 §6.3 with RFC 7905 §2: no MAC keys, 32-byte keys, 12-byte fixed IVs.
block = prf(master, b"key expansion", server_random + client_random, 2 * (32 + 12))
ckey, skey, civ, siv = block[0:32], block[32:64], block[64:76], block[76:88]

def record(key, iv, seq, ctype, plaintext):
    nonce = bytes(a ^ b for a, b in zip(iv, b"\x00\x00\x00\x00" + struct.pack(">Q", seq)))
    aad = struct.pack(">QBHH", seq, ctype, 0x0303, len(plaintext))
    fragment = ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)
    return {"seq": seq, "content_type": ctype, "plaintext": plaintext.hex(), "nonce": nonce.hex(),
            "additional_data": aad.hex(),
            "record": (struct.pack(">BHH", ctype, 0x0303, len(fragment)) + fragment).hex()}

finished = bytes.fromhex("1400000c") + bytes(range(0xd0, 0xdc))
print(json.dumps({
    "_about": "TLS 1.2 ChaCha20-Poly1305 records (RFC 7905 §2) made by Tests/Fixtures/chacha20-records.py with "
              "Python cryptography " + cryptography.__version__ + " (ChaCha20Poly1305 over OpenSSL) and hmac/hashlib "
              "for the SHA-256 TLS PRF; not by TLSLab. The key block is PRF(master, \"key expansion\", server_random ‖ "
              "client_random) cut as client_write_key, server_write_key, client_write_IV, server_write_IV.",
    "master_secret": master.hex(), "client_random": client_random.hex(), "server_random": server_random.hex(),
    "key_block": block.hex(), "client_write_key": ckey.hex(), "server_write_key": skey.hex(),
    "client_write_IV": civ.hex(), "server_write_IV": siv.hex(),
    "client_records": [record(ckey, civ, 0, 22, finished), record(ckey, civ, 1, 23, b"GET / HTTP/1.1\r\n\r\n")],
    "server_records": [record(skey, siv, 0, 22, finished), record(skey, siv, 0x0102030405060708, 23, b"")],
}, indent=2))
