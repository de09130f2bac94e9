package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// renderWorkerEnv makes this test binary run `vitrine render-worker`
// (through Run), so that a shop started by a test, whose render workers
// are this executable, has real workers.
const renderWorkerEnv = "VITRINE_TEST_APP_RENDER_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(renderWorkerEnv) != "" {
		if err := Run(context.Background(), []string{"render-worker", "--log-level", "warn"}, os.Getenv, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "render-worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	WorkerCommand = func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), renderWorkerEnv+"=1")
		return cmd
	}
	os.Exit(m.Run())
}
