package dirstore

import "github.com/idgen/idgen/internal/lease/storeurl"

// Kind is this store's row in the table of stores. The host directory
// has no URL: worker=lease and lease_dir= name it.
const Kind storeurl.Kind = "dir"
