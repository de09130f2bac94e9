package storeapi

import (
	"context"

	"vitrine/internal/catalog"
)

// Products converts catalogue products, loading what their prices and stock
// depend on in two queries whatever the count: the variations of variable
// products and the children of grouped ones.
func (b *Builder) Products(ctx context.Context, store catalog.Store, ps []*catalog.Product) ([]Product, error) {
	var parents, grouped []int64
	for _, p := range ps {
		switch p.Type {
		case catalog.TypeVariable:
			parents = append(parents, p.ID)
		case catalog.TypeGrouped:
			grouped = append(grouped, p.Children...)
		}
	}
	vars, err := store.VariationsOf(ctx, parents)
	if err != nil {
		return nil, err
	}
	kids := map[int64]*catalog.Product{}
	if len(grouped) > 0 {
		cs, err := store.Products(ctx, grouped)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			kids[c.ID] = c
		}
	}
	if b.Convert != nil {
		ids := make([]int64, 0, len(ps)+len(kids))
		for _, p := range ps {
			ids = append(ids, p.ID)
			for _, v := range vars[p.ID] {
				ids = append(ids, v.ID)
			}
		}
		for id := range kids {
			ids = append(ids, id)
		}
		if err := b.Convert.Load(ctx, ids); err != nil {
			return nil, err
		}
	}
	out := make([]Product, 0, len(ps))
	for _, p := range ps {
		children := vars[p.ID]
		if p.Type == catalog.TypeGrouped {
			for _, id := range p.Children {
				if c, ok := kids[id]; ok {
					children = append(children, c)
				}
			}
		}
		out = append(out, b.Product(p, children))
	}
	return out, nil
}
