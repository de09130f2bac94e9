package render

import (
	_ "embed"
	"os"
	"os/exec"
)

// nodeWorkerScript is a render worker for Node.js: the same frames as
// ServeWorker, with the bundle as its first request (WorkersConfig.Bundle).
//
//go:embed nodeworker.cjs
var nodeWorkerScript string

// NodeWorkerCommand starts a render worker run by the Node.js executable
// at node (docs/decisions/0140-node-renderer.md); give NewWorkers the
// bundle with it. The worker's V8 heap is bounded as a QuickJS VM is, and
// it sees none of the shop's environment but the time zone.
func NodeWorkerCommand(node string) func() *exec.Cmd {
	return func() *exec.Cmd {
		cmd := exec.Command(node, "--max-old-space-size=256", "-e", nodeWorkerScript)
		cmd.Env = []string{}
		if tz, ok := os.LookupEnv("TZ"); ok {
			cmd.Env = append(cmd.Env, "TZ="+tz)
		}
		return cmd
	}
}
