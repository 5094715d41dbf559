// tlspeer: a TLS client and server written with Go's crypto/tls (standard library only), for the
// interop tests in Tests/RealPeerTests/GoInteropTests.swift. It prints facts, one per line as
// "key=value" words, that the Swift tests assert; it never judges the peer itself.
//
//	go build -o tlspeer tlspeer.go
//	tlspeer client -addr 127.0.0.1:PORT -ca root.pem [-max 1.2|1.3] [-curves X25519,P-256] [-connections 2]
//	               [-later-curves P-384,P-256] [-cert client.pem -key client.key] [-alpn h2,http/1.1]
//	tlspeer server -cert chain.pem -key leaf.key [-max 1.2|1.3] [-curves P-256] [-clientca root.pem]
//	               [-connections N] [-keylog FILE]
package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"
)

var versionNames = map[uint16]string{tls.VersionTLS12: "TLS1.2", tls.VersionTLS13: "TLS1.3"}

var curveIDs = map[string]tls.CurveID{"X25519": tls.X25519, "P-256": tls.CurveP256, "P-384": tls.CurveP384, "P-521": tls.CurveP521}

func maxVersion(s string) uint16 {
	switch s {
	case "1.2":
		return tls.VersionTLS12
	case "1.3":
		return tls.VersionTLS13
	}
	fail("-max takes 1.2 or 1.3")
	return 0
}

func curves(s string) []tls.CurveID {
	if s == "" {
		return nil
	}
	var out []tls.CurveID
	for _, name := range strings.Split(s, ",") {
		id, ok := curveIDs[name]
		if !ok {
			fail("unknown curve " + name)
		}
		out = append(out, id)
	}
	return out
}

func pool(file string) *x509.CertPool {
	pem, err := os.ReadFile(file)
	if err != nil {
		fail(err.Error())
	}
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(pem) {
		fail("no certificate in " + file)
	}
	return p
}

func fail(message string) {
	fmt.Println("error=" + strings.ReplaceAll(message, "\n", " "))
	os.Exit(2)
}

// facts prints what the connection negotiated. Go 1.19's ConnectionState does not report the key
// exchange group, so the group is asserted from the other side.
func facts(prefix string, s tls.ConnectionState) string {
	subject := "none"
	if len(s.PeerCertificates) > 0 {
		subject = strings.ReplaceAll(s.PeerCertificates[0].Subject.CommonName, " ", "_")
	}
	alpn := s.NegotiatedProtocol
	if alpn == "" {
		alpn = "none"
	}
	return fmt.Sprintf("%s version=%s suite=%s resumed=%t alpn=%s peer=%s", prefix, versionNames[s.Version],
		tls.CipherSuiteName(s.CipherSuite), s.DidResume, alpn, subject)
}

func client(args []string) {
	f := flag.NewFlagSet("client", flag.ExitOnError)
	addr := f.String("addr", "", "host:port")
	name := f.String("servername", "localhost", "server name")
	ca := f.String("ca", "root.pem", "trust anchors")
	max := f.String("max", "1.3", "highest version")
	curveList := f.String("curves", "", "CurvePreferences, comma-separated")
	connections := f.Int("connections", 1, "connections sharing one ClientSessionCache")
	laterCurves := f.String("later-curves", "", "CurvePreferences from the second connection on (default: -curves)")
	cert := f.String("cert", "", "client certificate chain")
	key := f.String("key", "", "client key")
	alpn := f.String("alpn", "", "ALPN protocols, comma-separated")
	f.Parse(args)
	config := &tls.Config{
		ServerName:         *name,
		RootCAs:            pool(*ca),
		MinVersion:         tls.VersionTLS12,
		MaxVersion:         maxVersion(*max),
		CurvePreferences:   curves(*curveList),
		ClientSessionCache: tls.NewLRUClientSessionCache(4),
	}
	if *alpn != "" {
		config.NextProtos = strings.Split(*alpn, ",")
	}
	if *cert != "" {
		pair, err := tls.LoadX509KeyPair(*cert, *key)
		if err != nil {
			fail(err.Error())
		}
		config.Certificates = []tls.Certificate{pair}
	}
	for i := 1; i <= *connections; i++ {
		if i == 2 && *laterCurves != "" {
			config = config.Clone()
			config.CurvePreferences = curves(*laterCurves)
		}
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", *addr, config)
		if err != nil {
			fail(fmt.Sprintf("connection %d: %v", i, err))
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(conn, "GET / HTTP/1.0\r\nHost: localhost\r\n\r\n"); err != nil {
			fail(fmt.Sprintf("connection %d: writing: %v", i, err))
		}
		// Reading to the end also reads the NewSessionTicket that follows a TLS 1.3 handshake.
		body, err := io.ReadAll(conn)
		if err != nil && !errors.Is(err, io.EOF) {
			fail(fmt.Sprintf("connection %d: reading: %v", i, err))
		}
		fmt.Println(facts(fmt.Sprintf("connection=%d", i), conn.ConnectionState()))
		for _, line := range strings.Split(string(body), "\n") {
			fmt.Printf("page%d: %s\n", i, strings.TrimRight(line, "\r"))
		}
		conn.Close()
	}
}

func server(args []string) {
	f := flag.NewFlagSet("server", flag.ExitOnError)
	cert := f.String("cert", "chain.pem", "certificate chain")
	key := f.String("key", "leaf.key", "key")
	max := f.String("max", "1.3", "highest version")
	curveList := f.String("curves", "", "CurvePreferences, comma-separated")
	clientCA := f.String("clientca", "", "require and verify a client certificate issued under these anchors")
	connections := f.Int("connections", 0, "stop after this many connections (0: never)")
	keylog := f.String("keylog", "", "NSS key log file")
	f.Parse(args)
	pair, err := tls.LoadX509KeyPair(*cert, *key)
	if err != nil {
		fail(err.Error())
	}
	config := &tls.Config{
		Certificates:     []tls.Certificate{pair},
		MinVersion:       tls.VersionTLS12,
		MaxVersion:       maxVersion(*max),
		CurvePreferences: curves(*curveList),
	}
	if *clientCA != "" {
		config.ClientAuth = tls.RequireAndVerifyClientCert
		config.ClientCAs = pool(*clientCA)
	}
	if *keylog != "" {
		w, err := os.OpenFile(*keylog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fail(err.Error())
		}
		config.KeyLogWriter = w
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err.Error())
	}
	fmt.Printf("PORT %d\n", listener.Addr().(*net.TCPAddr).Port)
	for i := 1; *connections == 0 || i <= *connections; i++ {
		raw, err := listener.Accept()
		if err != nil {
			fail(err.Error())
		}
		serve(i, tls.Server(raw, config))
	}
}

// serve answers one HTTP/1.0 request with the connection's facts; a failed handshake is printed.
func serve(i int, conn *tls.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if err := conn.Handshake(); err != nil {
		fmt.Printf("connection=%d handshake-error=%q\n", i, err.Error())
		return
	}
	reader := bufio.NewReader(conn)
	for {
		line, err := reader.ReadString('\n')
		if err != nil {
			fmt.Printf("connection=%d read-error=%q\n", i, err.Error())
			return
		}
		if line == "\r\n" || line == "\n" {
			break
		}
	}
	line := facts(fmt.Sprintf("connection=%d", i), conn.ConnectionState())
	fmt.Println(line)
	body := "Go crypto/tls: " + line + "\n"
	fmt.Fprintf(conn, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: tlspeer client|server [flags]")
	}
	switch os.Args[1] {
	case "client":
		client(os.Args[2:])
	case "server":
		server(os.Args[2:])
	default:
		fail("usage: tlspeer client|server [flags]")
	}
}
