package wcimport

// CatalogueDeps are what the catalogue's import writes with.
type CatalogueDeps struct{}

// catalogueResources are the catalogue's resources, in order.
func (r *Run) catalogueResources() []resource { return nil }
