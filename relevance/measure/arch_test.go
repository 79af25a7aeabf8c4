package measure

import "runtime"

func isAMD64() bool { return runtime.GOARCH == "amd64" }
