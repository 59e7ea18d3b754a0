package config

import "github.com/idgen/idgen/internal/layout"

// MetricName is the generator's name label in metrics: the name= key;
// else the preset; else "custom" for a layout given without a preset (the
// default preset restated with another layout, unit or epoch).
func (c *Spec) MetricName() string {
	if c.Name != "" {
		return c.Name
	}
	p, ok := presets[c.Preset]
	if !ok {
		return "custom"
	}
	if c.Preset == "snowflake" && !c.Scheme.IsText() {
		l, err := layout.Parse(p.layout)
		if err != nil || l.String() != c.Layout.String() || c.Unit != p.unit || c.EpochMs != p.epochMs {
			return "custom"
		}
	}
	return c.Preset
}
