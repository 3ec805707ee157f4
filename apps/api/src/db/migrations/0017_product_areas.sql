-- Products carry an area of law, a one-line "what you get", a delivery time and the product page's
-- lists (issue 20, docs/decisions/2010). All optional: the spec's four-field product still saves.
ALTER TABLE "products" ADD COLUMN "area" text;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "what_you_get" text;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "delivery_days" integer CHECK ("delivery_days" BETWEEN 1 AND 90);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "included" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "you_provide" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "not_included" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
-- A catalogue seeded before this change: its three categories name their areas, and every seeded
-- product promised delivery within 10 working days.
UPDATE "products" SET "delivery_days" = 10, "area" = CASE "category"
	WHEN 'Contract Law' THEN 'Contracts and Commercial'
	WHEN 'Intellectual Property' THEN 'Intellectual Property'
	WHEN 'Employment Law' THEN 'Employment and Labour'
END WHERE "area" IS NULL AND "category" IN ('Contract Law', 'Intellectual Property', 'Employment Law');
--> statement-breakpoint
-- The catalogue's copy now carries each product's rating: a review moves it. Watched once, whichever
-- migration watches reviews first.
DO $$ BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'reviews'::regclass AND tgname = 'cache_note_insert') THEN
		PERFORM cache_watch('reviews');
	END IF;
END $$;
