module github.com/idgen/idgen/bench/go

go 1.25.0

require (
	github.com/bwmarrin/snowflake v0.3.0
	github.com/idgen/idgen v0.0.0
)

require github.com/sony/sonyflake/v2 v2.0.0

replace github.com/idgen/idgen => ../..
