import { NonEmptyString, Timestamp } from "./common";
import { z } from "./zod";

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;

export const ReviewerParamsSchema = z.object({
  id: NonEmptyString.openapi({ description: "Workspace id." }),
  reviewerId: NonEmptyString.openapi({ description: "Reviewer id." }),
});

export const CreateReviewerRequestSchema = z
  .object({
    email: z.email().max(MAX_EMAIL_LENGTH).openapi({ description: "Sign-in name; case-insensitive. An email already known keeps its account." }),
    name: NonEmptyString.max(200),
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`)
      .openapi({ description: "Stored only as a scrypt hash." }),
  })
  .openapi("AdminCreateReviewerRequest");

export const ReviewerSchema = z
  .object({ id: z.string(), email: z.string(), name: z.string(), createdAt: Timestamp })
  .openapi("AdminReviewer");

export const ReviewerListSchema = z.object({ items: z.array(ReviewerSchema) }).openapi("AdminReviewerList");
