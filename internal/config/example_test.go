package config_test

import (
	"fmt"

	"github.com/idgen/idgen/internal/config"
)

func ExampleParse() {
	c, _ := config.Parse("preset=baidu layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00 worker=5")
	fmt.Println(c)
	// Output: preset=baidu layout=time:29,worker:21,seq:13 unit=1s epoch=1474300800000 worker=5 clock=mono on_exhausted=wait seq_start=0
}
