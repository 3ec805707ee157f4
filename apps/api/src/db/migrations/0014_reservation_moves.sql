-- A visitor's reservation moved into a company's cart at log-in (docs/decisions/1800): one row per
-- reservation id, so a retry or a second tab holding the same reservations moves each once.
CREATE TABLE "reservation_moves" (
	"company_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"reservation_id" uuid NOT NULL,
	"moved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reservation_moves_company_id_reservation_id_pk" PRIMARY KEY("company_id","reservation_id")
);
