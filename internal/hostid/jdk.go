package hostid

// The host's addresses as a JVM on Linux enumerates them, for the choices
// RocketMQ and mybatis-plus make in Java: RocketMQ's UtilAll.getIP(),
// rocketmq-clients' Utilities.macAddress() and mybatis-plus's Sequence.
//
// The JDK (17 to 25, Linux) lists the interfaces that hold an IPv4 address
// (in the kernel's order), then adds those of /proc/net/if_inet6 (in the
// file's order), putting each new interface and each new address at the
// front of its list: so the enumeration is the reverse of that discovery.

import (
	"bufio"
	"encoding/hex"
	"net"
	"os"
	"strings"
)

// jdkIface is one interface of the JDK's enumeration.
type jdkIface struct {
	name  string
	mac   []byte   // nil when it has none or it is all zeros (as Java reports it)
	addrs []net.IP // in Java's order; IPv4 as 4 bytes, IPv6 as 16
}

// jdkInterfaces lists the host's interfaces and addresses in the order
// java.net.NetworkInterface.getNetworkInterfaces() gives them.
func jdkInterfaces() []jdkIface {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var order []*jdkIface // discovery order
	byName := map[string]*jdkIface{}
	add := func(name string, ip net.IP) {
		j := byName[name]
		if j == nil {
			j = &jdkIface{name: name}
			for i := range ifaces {
				if ifaces[i].Name == name {
					j.mac = macOf(&ifaces[i])
				}
			}
			byName[name] = j
			order = append(order, j)
		}
		j.addrs = append([]net.IP{ip}, j.addrs...)
	}
	for i := range ifaces {
		addrs, err := ifaces[i].Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				if ip4 := ipn.IP.To4(); ip4 != nil {
					add(ifaces[i].Name, ip4)
				}
			}
		}
	}
	for _, v6 := range ipv6Addrs(ifaces) {
		add(v6.name, v6.ip)
	}
	out := make([]jdkIface, len(order))
	for i, j := range order {
		out[len(order)-1-i] = *j
	}
	return out
}

type nameIP struct {
	name string
	ip   net.IP
}

// ipv6Addrs reads /proc/net/if_inet6 as the JDK does; without it, the
// IPv6 addresses Go sees.
func ipv6Addrs(ifaces []net.Interface) []nameIP {
	var out []nameIP
	if f, err := os.Open("/proc/net/if_inet6"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) < 6 || len(fs[0]) != 32 {
				continue
			}
			b, err := hex.DecodeString(fs[0])
			if err != nil {
				continue
			}
			out = append(out, nameIP{fs[5], net.IP(b)})
		}
		return out
	}
	for i := range ifaces {
		addrs, _ := ifaces[i].Addrs()
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() == nil && len(ipn.IP) == net.IPv6len {
				out = append(out, nameIP{ifaces[i].Name, ipn.IP})
			}
		}
	}
	return out
}

// RocketMQIP is the address RocketMQ's UtilAll.getIP() picks: the first
// IPv4 address that is not internal (10/8, 127/8, 172.16/12, 192.168/16),
// or the first IPv6 one that is neither unspecified, link-local, loopback
// nor site-local (fec0::/10), in Java's enumeration; failing both, the
// first internal IPv4 address other than 127/8, else the last 127/8 one.
// nil when the host has no address at all (RocketMQ then makes up one from
// the clock).
func RocketMQIP() net.IP {
	var internal net.IP
	for _, j := range jdkInterfaces() {
		for _, ip := range j.addrs {
			if len(ip) == net.IPv4len {
				if !rocketInternal4(ip) {
					return ip
				}
				if internal == nil || internal[0] == 127 {
					internal = ip
				}
				continue
			}
			if !(ip.IsUnspecified() || ip.IsLinkLocalUnicast() || ip.IsLoopback() || (ip[0] == 0xfe && ip[1]&0xc0 == 0xc0)) {
				return ip
			}
		}
	}
	return internal
}

func rocketInternal4(ip net.IP) bool {
	return ip[0] == 10 || ip[0] == 127 || (ip[0] == 172 && ip[1] >= 16 && ip[1] <= 31) || (ip[0] == 192 && ip[1] == 168)
}

// RocketV1MAC is the MAC rocketmq-clients' Utilities.macAddress() picks:
// that of the first interface in Java's enumeration that has one; nil if
// none has (upstream then makes up six random bytes).
func RocketV1MAC() []byte {
	for _, j := range jdkInterfaces() {
		if j.mac != nil {
			return j.mac
		}
	}
	return nil
}

// MybatisDatacenterID is mybatis-plus Sequence's getDatacenterId(max) with
// no address given: the interface that carries the address the host name
// resolves to (InetAddress.getLocalHost()); 1 when no interface carries it,
// 0 when that interface has no MAC or the name does not resolve; else
// hutool's formula over that MAC.
func MybatisDatacenterID(max int64) int64 {
	host, err := os.Hostname()
	if err != nil {
		return 0
	}
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return 0
	}
	local := ips[0]
	for _, ip := range ips { // Java prefers IPv4 unless told otherwise
		if ip.To4() != nil {
			local = ip
			break
		}
	}
	for _, j := range jdkInterfaces() {
		for _, ip := range j.addrs {
			if ip.Equal(local) {
				if j.mac == nil {
					return 0
				}
				return HutoolDatacenterID(j.mac, max)
			}
		}
	}
	return 1
}
