#!/usr/bin/env bash
# Regenerates the PEM fixtures under Tests/Fixtures/pki/ with OpenSSL 3.
# Every certificate gets fixed validity dates (openssl ca -startdate/-enddate), so tests run
# against a fixed clock (2030-06-01T00:00:00Z) and never depend on today's date.
# Keys are fresh on each run: re-running changes every byte, so commit the whole directory at once.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/Tests/Fixtures/pki"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -f "$out"/*.pem

START=20200101000000Z      # valid from 2020-01-01
END=20991231235959Z        # until 2099 (GeneralizedTime after 2049)
CA_END=20601231235959Z

cat > "$work/ca.cnf" <<CNF
[ ca ]
default_ca = tl
[ tl ]
database = $work/index.txt
new_certs_dir = $work/newcerts
serial = $work/serial
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[ anything ]
commonName = optional
organizationName = optional
countryName = optional
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = placeholder
[ root ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ int0 ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ intca ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ intnoca ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyCertSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ server ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:www.example.com, DNS:*.api.example.com, IP:192.0.2.10
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ serverec ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:www.example.com, IP:2001:db8::1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ wronghost ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:mail.example.net
authorityKeyIdentifier = keyid
[ selfsigned ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:www.example.com
[ selfclientonly ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
subjectAltName = DNS:www.example.com
[ kunonrep ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, nonRepudiation, dataEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:www.example.com
authorityKeyIdentifier = keyid
[ kuagreement ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, keyAgreement
extendedKeyUsage = serverAuth
subjectAltName = DNS:www.example.com
authorityKeyIdentifier = keyid
[ cnonly ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:mail.example.com
authorityKeyIdentifier = keyid
[ clientonly ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
subjectAltName = DNS:www.example.com
authorityKeyIdentifier = keyid
[ client ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
[ intranet ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:intranet.example.com
authorityKeyIdentifier = keyid
CNF

reset_db() { : > "$work/index.txt"; mkdir -p "$work/newcerts"; printf '%s\n' "$1" > "$work/serial"; }
reset_db 1000

key_rsa() { openssl genpkey -algorithm RSA -pkeyopt "rsa_keygen_bits:${2:-2048}" -out "$work/$1.key" 2>/dev/null; }
key_pss() { openssl genpkey -algorithm RSA-PSS -pkeyopt "rsa_keygen_bits:${2:-2048}" "${@:3}" -out "$work/$1.key" 2>/dev/null; }
key_ec()  { openssl genpkey -algorithm EC -pkeyopt "ec_paramgen_curve:${2:-P-256}" -out "$work/$1.key" 2>/dev/null; }

# sign NAME SUBJECT-CN EXT ISSUER(or self) START END [extra ca args...]
sign() {
  local name="$1" cn="$2" ext="$3" issuer="$4" start="$5" end="$6"; shift 6
  openssl req -new -config "$work/ca.cnf" -key "$work/$name.key" -subj "/C=US/O=TLSLab Test/CN=$cn" \
    -out "$work/$name.csr" 2>/dev/null
  if [ "$issuer" = self ]; then
    openssl ca -batch -config "$work/ca.cnf" -selfsign -keyfile "$work/$name.key" -in "$work/$name.csr" \
      -extensions "$ext" -startdate "$start" -enddate "$end" -notext -out "$out/$name.pem" "$@" 2>/dev/null
  else
    openssl ca -batch -config "$work/ca.cnf" -cert "$out/$issuer.pem" -keyfile "$work/$issuer.key" \
      -in "$work/$name.csr" -extensions "$ext" -startdate "$start" -enddate "$end" -notext \
      -out "$out/$name.pem" "$@" 2>/dev/null
  fi
}

# RSA hierarchy: root → intermediate (pathlen 0) → leaves
key_rsa root;            sign root "TLSLab Test Root CA" root self "$START" "$CA_END"
key_rsa int;             sign int "TLSLab Test Intermediate CA" int0 root "$START" "$CA_END"
key_rsa leaf;            sign leaf "www.example.com" server int "$START" "$END"
cp "$work/leaf.key" "$work/leaf-renewed-same-key.key"
sign leaf-renewed-same-key "www.example.com" server int 20250101000000Z "$END"
key_rsa leaf-renewed-new-key; sign leaf-renewed-new-key "www.example.com" server int 20250101000000Z "$END"
key_rsa leaf-expired;    sign leaf-expired "www.example.com" server int 20000101000000Z 20010101000000Z
key_rsa leaf-notyet;     sign leaf-notyet "www.example.com" server int 20900101000000Z "$END"
key_rsa leaf-wronghost;  sign leaf-wronghost "mail.example.net" wronghost int "$START" "$END"
key_rsa leaf-sha1;       sign leaf-sha1 "www.example.com" server int "$START" "$END" -md sha1
key_rsa leaf-rsa1024 1024; sign leaf-rsa1024 "www.example.com" server int "$START" "$END"
key_rsa leaf-pss;        sign leaf-pss "www.example.com" server int "$START" "$END" \
                           -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:32
key_rsa leaf-clientonly; sign leaf-clientonly "www.example.com" clientonly int "$START" "$END"
key_rsa selfsigned;      sign selfsigned "www.example.com" selfsigned self "$START" "$END"
# Self-signed leaves that a pinning app might make its own anchor: clientAuth-only EKU, RSA-1024 key
key_rsa selfsigned-clientonly; sign selfsigned-clientonly "www.example.com" selfclientonly self "$START" "$END"
key_rsa selfsigned-rsa1024 1024; sign selfsigned-rsa1024 "www.example.com" selfsigned self "$START" "$END"
# keyUsage without digitalSignature/keyEncipherment/keyAgreement (OpenSSL's sslserver rule), and keyAgreement alone
key_rsa leaf-ku-nonrepudiation; sign leaf-ku-nonrepudiation "www.example.com" kunonrep int "$START" "$END"
key_rsa leaf-ku-keyagreement;   sign leaf-ku-keyagreement "www.example.com" kuagreement int "$START" "$END"
# CN is the host, the SAN is another name: the SAN wins, so the host does not match
key_rsa leaf-cn-only-match; sign leaf-cn-only-match "www.example.com" cnonly int "$START" "$END"
# CA:FALSE intermediate and a leaf under it
key_rsa int-noca;        sign int-noca "TLSLab Not A CA" intnoca root "$START" "$CA_END"
key_rsa leaf-under-noca; sign leaf-under-noca "www.example.com" server int-noca "$START" "$END"
# pathLen exceeded: int (pathlen 0) → int2 (CA) → leaf
key_rsa int2;            sign int2 "TLSLab Second-Level CA" intca int "$START" "$CA_END"
key_rsa leaf-deep;       sign leaf-deep "www.example.com" server int2 "$START" "$END"
# client certificates for mutual TLS
key_rsa client-alice;    sign client-alice "alice" client int "$START" "$END"
key_rsa client-bob;      sign client-bob "bob" client int "$START" "$END"
key_rsa client-expired;  sign client-expired "alice" client int 20000101000000Z 20010101000000Z
key_rsa client-notyet;   sign client-notyet "alice" client int 20900101000000Z "$END"
# a second, unrelated root (the "public CA" of the anchor-set pattern) and its leaves
key_rsa other-root;      sign other-root "TLSLab Other Public Root" root self "$START" "$CA_END"
key_rsa other-leaf;      sign other-leaf "www.example.com" server other-root "$START" "$END"
key_rsa client-other-ca; sign client-other-ca "alice" client other-root "$START" "$END"
# a company's self-signed CA issuing an intranet server certificate
key_rsa company-ca;      sign company-ca "Company Self-Signed CA" root self "$START" "$CA_END"
key_rsa intranet;        sign intranet "intranet.example.com" intranet company-ca "$START" "$END"

# RSA-PSS keys (id-RSASSA-PSS in SubjectPublicKeyInfo, RFC 4055 §1.2): an intermediate with an unrestricted
# RSA-PSS key and one whose key carries RSASSA-PSS-params (SHA-256, MGF1-SHA-256, salt ≥ 32); an RSA-PSS key
# can only make PSS signatures, so openssl ca signs the leaves under them with RSASSA-PSS.
key_pss int-pss;         sign int-pss "TLSLab RSA-PSS Intermediate CA" int0 root "$START" "$CA_END"
key_rsa leaf-under-pss;  sign leaf-under-pss "www.example.com" server int-pss "$START" "$END"
key_pss int-pss-restricted 2048 -pkeyopt rsa_pss_keygen_md:sha256 -pkeyopt rsa_pss_keygen_mgf1_md:sha256 \
                           -pkeyopt rsa_pss_keygen_saltlen:32
sign int-pss-restricted "TLSLab Restricted RSA-PSS CA" int0 root "$START" "$CA_END"
key_rsa leaf-under-pss-restricted; sign leaf-under-pss-restricted "www.example.com" server int-pss-restricted "$START" "$END"
# An RSA-PSS leaf key (the server's own key is RSA-PSS) under the ordinary RSA intermediate
key_pss leaf-pss-key;    sign leaf-pss-key "www.example.com" server int "$START" "$END"
# PSS signature whose MGF1 hash (SHA-384) differs from the message hash (SHA-256)
key_rsa leaf-pss-mgf384; sign leaf-pss-mgf384 "www.example.com" server int "$START" "$END" \
                           -sigopt rsa_padding_mode:pss -sigopt rsa_mgf1_md:sha384 -sigopt rsa_pss_saltlen:32
# A leaf the restricted RSA-PSS key signed with SHA-384 (the key's parameters allow only SHA-256):
# OpenSSL refuses to make it, so Python's cryptography signs it; openssl verify rejects it.
key_rsa leaf-pss-violates
python3 - "$work" "$out" <<'PY'
import datetime, sys
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
work, out = sys.argv[1], sys.argv[2]
issuer = x509.load_pem_x509_certificate(open(f"{out}/int-pss-restricted.pem", "rb").read())
issuer_key = serialization.load_pem_private_key(open(f"{work}/int-pss-restricted.key", "rb").read(), None)
key = serialization.load_pem_private_key(open(f"{work}/leaf-pss-violates.key", "rb").read(), None)
name = x509.Name([x509.NameAttribute(x509.NameOID.COUNTRY_NAME, "US"),
                  x509.NameAttribute(x509.NameOID.ORGANIZATION_NAME, "TLSLab Test"),
                  x509.NameAttribute(x509.NameOID.COMMON_NAME, "www.example.com")])
ski = issuer.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
cert = (x509.CertificateBuilder().subject_name(name).issuer_name(issuer.subject).public_key(key.public_key())
        .serial_number(0x2000).not_valid_before(datetime.datetime(2020, 1, 1)).not_valid_after(datetime.datetime(2099, 12, 31, 23, 59, 59))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("www.example.com")]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski), critical=False)
        .sign(issuer_key, hashes.SHA384(), rsa_padding=padding.PSS(mgf=padding.MGF1(hashes.SHA384()), salt_length=48)))
open(f"{out}/leaf-pss-violates.pem", "wb").write(cert.public_bytes(serialization.Encoding.PEM))
PY

# EC hierarchy: P-384 root → P-256 intermediate → P-256 leaf
key_ec ec-root P-384;    sign ec-root "TLSLab EC Root CA" root self "$START" "$CA_END" -md sha384
key_ec ec-int;           sign ec-int "TLSLab EC Intermediate CA" int0 ec-root "$START" "$CA_END" -md sha384
key_ec ec-leaf;          sign ec-leaf "www.example.com" serverec ec-int "$START" "$END"

# Full chains as PEM bundles (leaf first) for the pin command and bundle parsing
cat "$out/leaf.pem" "$out/int.pem" "$out/root.pem" > "$out/chain-rsa.pem"
cat "$out/ec-leaf.pem" "$out/ec-int.pem" "$out/ec-root.pem" > "$out/chain-ec.pem"
# Public keys of two leaves (not certificates: the pin command must refuse them)
openssl pkey -in "$work/leaf.key" -pubout -out "$out/leaf-pubkey.pem"
echo "wrote $(ls "$out" | wc -l) files to Tests/Fixtures/pki"
