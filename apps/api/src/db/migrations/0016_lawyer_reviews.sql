-- Reviews of lawyers (issue 20, docs/decisions/2000): one per completed job, by the job's company, with
-- one answer from the lawyer. The unique job_id is what makes two posts at once make one review.
CREATE TABLE "lawyer_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL REFERENCES "jobs"("id") ON DELETE CASCADE,
	"company_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"lawyer_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"stars" integer NOT NULL,
	"review_title" text NOT NULL,
	"review" text NOT NULL,
	"reply" text,
	"replied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lawyer_reviews_stars_check" CHECK ("stars" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lawyer_reviews_job_uq" ON "lawyer_reviews" ("job_id");
--> statement-breakpoint
CREATE INDEX "lawyer_reviews_lawyer_idx" ON "lawyer_reviews" ("lawyer_id", "created_at");
--> statement-breakpoint
-- A company has one review per product (docs/decisions/2001): keep each company's newest review of a
-- product, drop the older ones, then let the database hold the rule.
DELETE FROM "reviews" r
USING "reviews" newer
WHERE newer."company_id" = r."company_id"
  AND newer."product_id" = r."product_id"
  AND (newer."created_at", newer."id") > (r."created_at", r."id");
--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_company_product_uq" ON "reviews" ("company_id", "product_id");
