print("tlslab 0.1.0 — a TLS 1.2 handshake simulator and teaching engine")
