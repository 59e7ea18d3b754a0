package config

// The text presets' keys (rocketmq: ip, pid, loader_hash, tz; rocketmq-v1:
// mac, pid), text= of the numeric presets, and name=.

import (
	"net"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
)

func readIP(d *draft, v string) error {
	if v == "auto" {
		return nil
	}
	ip := net.ParseIP(v)
	if ip == nil || strings.Contains(v, "%") {
		return errs.Key("ip", "want auto or an IPv4 or IPv6 address, got %q", v)
	}
	if ip4 := ip.To4(); ip4 != nil && !strings.Contains(v, ":") {
		ip = ip4
	}
	d.TextKeys.IP = ip
	return nil
}

func printIP(c *Spec) (string, bool) {
	ip := c.TextKeys.IP
	if ip == nil {
		return "auto", true
	}
	if len(ip) == net.IPv6len && ip.To4() != nil {
		return "::ffff:" + ip.String(), true // IPv4-mapped: 16 bytes in the id, as given
	}
	return ip.String(), true
}

func readMAC(d *draft, v string) error {
	if v == "auto" {
		return nil
	}
	hw, err := net.ParseMAC(v)
	if err != nil || len(hw) != 6 {
		return errs.Key("mac", "want auto or six bytes like 02:fc:00:00:00:01, got %q", v)
	}
	d.TextKeys.MAC = hw
	return nil
}

func printMAC(c *Spec) (string, bool) {
	if c.TextKeys.MAC == nil {
		return "auto", true
	}
	return net.HardwareAddr(c.TextKeys.MAC).String(), true
}

func readPID(d *draft, v string) error {
	if v == "auto" {
		return nil
	}
	n, err := parseWhole(v)
	if err != nil || n < 0 || n > 1<<22 {
		return errs.Key("pid", "want auto or a process id from 0 to 4194304, got %q", v)
	}
	d.TextKeys.PID = n
	return nil
}

func printPID(c *Spec) (string, bool) {
	if c.TextKeys.PID < 0 {
		return "auto", true
	}
	return strconv.FormatInt(c.TextKeys.PID, 10), true
}

func readLoaderHash(d *draft, v string) error {
	if v == "random" {
		return nil
	}
	n, err := parseWhole(v)
	if err != nil || n < -(1<<31) || n >= 1<<32 {
		return errs.Key("loader_hash", "want random or a 32-bit number (Java's int, -2147483648..2147483647, or 0..4294967295), got %q", v)
	}
	d.TextKeys.LoaderHash = n & 0xffffffff
	return nil
}

func printLoaderHash(c *Spec) (string, bool) {
	if c.TextKeys.LoaderHash < 0 {
		return "random", true
	}
	return strconv.FormatInt(c.TextKeys.LoaderHash, 10), true
}

func readTZ(d *draft, v string) (err error) {
	if v != "local" {
		d.TextKeys.TZ, err = ParseTZ(v)
	}
	return err
}

func printTZ(c *Spec) (string, bool) {
	if c.TextKeys.TZ == nil {
		return "local", true
	}
	return c.TextKeys.TZ.String(), true
}

func readText(d *draft, v string) (err error) {
	d.Text, err = parseTextForm(v)
	return err
}

func printText(c *Spec) (string, bool) { return c.Text.String(), c.Text != TextDec }

func readName(d *draft, v string) error {
	if err := checkName(v); err != nil {
		return err
	}
	d.Name = v
	return nil
}

func printName(c *Spec) (string, bool) { return c.Name, c.Name != "" }
