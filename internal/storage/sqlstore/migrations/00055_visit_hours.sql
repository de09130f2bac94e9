-- +goose Up
-- Storefront sessions (internal/visits): how many sessions started in each
-- UTC hour, for the analytics' conversion rate (orders ÷ sessions). One row
-- per hour, a count and nothing else: no visitor, address or cookie is
-- kept. Hours are UTC so that the shop's time zone (which may change, and
-- has DST) is applied when a report reads them.
CREATE TABLE visit_hours (
    hour     BIGINT PRIMARY KEY, -- unix seconds of the hour's start (UTC)
    sessions BIGINT NOT NULL
);

-- +goose Down
DROP TABLE visit_hours;
