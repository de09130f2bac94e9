// Command vitrine runs the shop. See internal/app for its subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"vitrine/internal/app"
)

func main() {
	if err := app.Run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "vitrine:", err)
		var usage *app.UsageError
		if errors.As(err, &usage) {
			os.Exit(2) // bad input
		}
		os.Exit(1)
	}
}
