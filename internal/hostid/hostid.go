// Package hostid derives worker and datacenter ids the way hutool and
// mybatis-plus do, from the host's MAC address and the process id:
// compatibility only, with no uniqueness guarantee.
package hostid

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// PID is the process id.
func PID() int { return os.Getpid() }

// HutoolDatacenterID is hutool's IdUtil.getDataCenterId(max) (and
// mybatis-plus Sequence's): bits 6..15 of the last two MAC bytes taken
// little-endian, modulo max+1; 1 when there is no MAC.
func HutoolDatacenterID(mac []byte, max int64) int64 {
	if len(mac) < 2 {
		return 1
	}
	v := (int64(mac[len(mac)-2]) | int64(mac[len(mac)-1])<<8) >> 6
	return v % (max + 1)
}

// HutoolWorkerID is hutool's IdUtil.getWorkerId(datacenter, max): Java's
// String.hashCode of the decimal datacenter followed by the decimal pid,
// its low 16 bits, modulo max+1.
func HutoolWorkerID(datacenter, pid, max int64) int64 {
	return int64(JavaStringHash(strconv.FormatInt(datacenter, 10)+strconv.FormatInt(pid, 10))&0xffff) % (max + 1)
}

// JavaStringHash is Java's String.hashCode for ASCII text.
func JavaStringHash(s string) int32 {
	var h int32
	for _, c := range []byte(s) { // decimal digits: one UTF-16 unit each
		h = 31*h + int32(c)
	}
	return h
}

// LocalHardwareAddress is the MAC hutool's NetUtil.getLocalHardwareAddress
// picks: that of the interface holding the first non-loopback IPv4 address
// that is not site-local, else the first site-local one; nil if there is
// none or it has no MAC. Interfaces are visited in the kernel's order.
func LocalHardwareAddress() []byte {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var siteLocal *net.Interface
	for i := range ifaces {
		addrs, err := ifaces[i].Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			ip4 := ipn.IP.To4()
			if ip4 == nil || ip4.IsLoopback() {
				continue
			}
			if !isSiteLocal(ip4) {
				return macOf(&ifaces[i])
			}
			if siteLocal == nil {
				siteLocal = &ifaces[i]
			}
		}
	}
	if siteLocal != nil {
		return macOf(siteLocal)
	}
	return nil
}

// isSiteLocal is Java's Inet4Address.isSiteLocalAddress: 10/8, 172.16/12,
// 192.168/16.
func isSiteLocal(ip net.IP) bool {
	return ip[0] == 10 || (ip[0] == 172 && ip[1]&0xf0 == 16) || (ip[0] == 192 && ip[1] == 168)
}

// macOf is the interface's MAC, nil when it has none or it is all zeros (as
// Java reports it).
func macOf(i *net.Interface) []byte {
	for _, b := range i.HardwareAddr {
		if b != 0 {
			return i.HardwareAddr
		}
	}
	return nil
}

// Ordinal is the text of a StatefulSet-style ordinal and where it came
// from: $IDGEN_ORDINAL when set, else the digits after the host name's
// last '-' (web-3 → "3"). A host name without one is an error saying so.
func Ordinal() (value, from string, err error) {
	if v, ok := os.LookupEnv("IDGEN_ORDINAL"); ok {
		return v, "$IDGEN_ORDINAL", nil
	}
	h, err := os.Hostname()
	if err != nil {
		return "", "", fmt.Errorf("cannot read the host name (%v) and $IDGEN_ORDINAL is not set", err)
	}
	h, _, _ = strings.Cut(h, ".")
	i := strings.LastIndexByte(h, '-')
	if i < 0 || i == len(h)-1 || strings.Trim(h[i+1:], "0123456789") != "" {
		return "", "", fmt.Errorf("host name %q does not end in -N (a StatefulSet pod name like web-3) and $IDGEN_ORDINAL is not set", h)
	}
	return h[i+1:], "host name " + strconv.Quote(h), nil
}
