package gen

// run is one reservation of a batch: n ids from first, step apart.
type run struct {
	first int64
	n     uint64
}

// fillRuns fills out with runs of ids step apart, each run reserved in one
// step by reserve (its first id and length). Every run is reserved before
// out is written, so a batch that fails part-way (the time field used up,
// the fence, a close) leaves out untouched, as the C ABI promises; the
// ids reserved are consumed.
func fillRuns(out []int64, step int64, reserve func(n uint64) (int64, uint64, error)) error {
	var stack [16]run // a batch spans a few ticks, runs or epochs
	runs := stack[:0]
	for left := uint64(len(out)); left > 0; {
		first, got, err := reserve(left)
		if err != nil {
			return err
		}
		runs = append(runs, run{first, got})
		left -= got
	}
	i := 0
	for _, r := range runs {
		chunk := out[i : i+int(r.n)]
		v := r.first
		for k := range chunk {
			chunk[k] = v
			v += step
		}
		i += int(r.n)
	}
	return nil
}
