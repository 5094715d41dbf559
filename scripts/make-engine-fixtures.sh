#!/bin/sh
# Regenerates the engine test fixtures (Tests/Fixtures/engine): a CA, a server certificate for
# "localhost" and a client certificate, all RSA-2048 from OpenSSL. Run once; the files are committed.
set -eu
cd "$(dirname "$0")/../Tests/Fixtures/engine"
days=36500
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key.pem -out ca.cert.pem -days $days \
    -subj "/CN=TLSLab Test CA" -sha256 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout server.key.pem -out server.csr -subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n' > server.ext
openssl x509 -req -in server.csr -CA ca.cert.pem -CAkey ca.key.pem -CAcreateserial -days $days \
    -sha256 -extfile server.ext -out server.cert.pem 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout client.key.pem -out client.csr -subj "/CN=TLSLab Test Client" 2>/dev/null
printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n' > client.ext
openssl x509 -req -in client.csr -CA ca.cert.pem -CAkey ca.key.pem -CAcreateserial -days $days \
    -sha256 -extfile client.ext -out client.cert.pem 2>/dev/null
for name in ca server client; do
    openssl x509 -in $name.cert.pem -outform DER -out $name.cert.der
done
rm -f server.csr client.csr server.ext client.ext ca.cert.srl
