package gen

// Resolving the worker and datacenter sources that need no store.

import (
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/hostid"
	"github.com/idgen/idgen/internal/layout"
)

// resolveSources turns pid and mac into numbers; an unset datacenter of a
// generator that takes no lease is 0.
func resolveSources(c *config.Spec) {
	if c.DCSrc == config.SourceMAC {
		f, _ := c.Layout.Field(layout.FieldDatacenter)
		if c.Preset == "mybatis-plus" {
			c.DC = hostid.MybatisDatacenterID(f.Max())
		} else {
			c.DC = hostid.HutoolDatacenterID(hostid.LocalHardwareAddress(), f.Max())
		}
		c.DCSrc = config.SourceValue
	}
	if c.WorkerSrc.Leasing() {
		return
	}
	if c.DCSrc == config.SourceUnset {
		c.DCSrc = config.SourceValue
	}
	if c.WorkerSrc == config.SourcePID {
		f, _ := c.Layout.Field(layout.FieldWorker)
		c.Worker = hostid.HutoolWorkerID(c.DC, int64(hostid.PID()), f.Max())
		c.WorkerSrc = config.SourceValue
	}
}
