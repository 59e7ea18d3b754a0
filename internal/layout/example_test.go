package layout_test

import (
	"fmt"

	"github.com/idgen/idgen/internal/layout"
)

func ExampleFormatID() {
	s, _ := layout.FormatID(910499571847892992, 62, true)
	fmt.Println(s)
	// Output: 15G63YLn9Ae
}
