// Command tcpproxy forwards TCP connections from a loopback port to a
// target, so a test can cut a client off by freezing the proxy (SIGSTOP)
// and let it through again (SIGCONT). It prints its port as the first line
// of its output.
//
//	tcpproxy -target 127.0.0.1:2181[,127.0.0.1:2182,...]
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"
)

func main() {
	target := flag.String("target", "", "host:port[,host:port...] to forward to (the first that answers)")
	flag.Parse()
	if *target == "" {
		fmt.Fprintln(os.Stderr, "tcpproxy: -target is required")
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tcpproxy:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	for {
		c, err := ln.Accept()
		if err != nil {
			continue
		}
		go forward(c, strings.Split(*target, ","))
	}
}

func forward(c net.Conn, targets []string) {
	defer c.Close()
	var up net.Conn
	for _, t := range targets {
		var err error
		if up, err = net.DialTimeout("tcp", t, 2*time.Second); err == nil {
			break
		}
	}
	if up == nil {
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
}
