package gen

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// An open that fails at any point after its lease was taken gives back
// everything it took: every pair of the pool opens afterwards. Before, a
// panic after the lease (a ring too large for makeslice) leaked the pair.
func TestAnOpenThatFailsAfterItsLeaseGivesThePairBack(t *testing.T) {
	injected := errors.New("injected")
	for _, fault := range []struct {
		name string
		f    func(Generator) error
		want string
	}{
		{"error", func(Generator) error { return injected }, "injected"},
		{"panic", func(Generator) error { panic("injected panic") }, "injected panic"},
	} {
		for cfg, pairs := range map[string]int{
			"layout=time:41,worker:1,seq:21 worker=lease":                     2,
			"preset=baidu-cached layout=time:30,worker:1,seq:13 worker=lease": 2,
			"preset=zk-session layout=worker:1,time:40,seq:16 worker=lease":   2,
			"preset=zxid worker=lease":                                        1,
		} {
			t.Run(fault.name+"/"+cfg, func(t *testing.T) {
				st := leasetest.New()
				spec, err := config.Parse(cfg)
				require.NoError(t, err)
				for i := 0; i < 3; i++ {
					openFault = fault.f
					g, err := Open(spec, Options{Store: st})
					openFault = nil
					require.Nil(t, g)
					require.ErrorContains(t, err, fault.want)
				}
				for i := 0; i < pairs; i++ {
					g, err := Open(spec, Options{Store: st})
					require.NoError(t, err, "the failed opens gave back their pairs: %d of %d free", i, pairs)
					defer g.Close()
				}
			})
		}
	}
}
