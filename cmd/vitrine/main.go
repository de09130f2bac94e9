// Command vitrine runs the shop. See internal/app for its subcommands.
package main

import (
	"context"
	"fmt"
	"os"

	"vitrine/internal/app"
)

func main() {
	if err := app.Run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "vitrine:", err)
		os.Exit(1)
	}
}
