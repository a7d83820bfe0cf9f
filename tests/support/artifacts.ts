import request from "supertest";
import type { TestApp } from "./test-app";
import { adminAuth } from "./factories";

export const minimalArtifact = <T extends Record<string, unknown>>(overrides: T = {} as T) => ({
  summary: "Enterprise churn doubled in Q3",
  why: "Churn drives net revenue retention",
  confidence: 0.8,
  confidenceExplanation: "Based on 14 months of subscription data",
  ...overrides,
});

/** Pushes through the API as the partner would and returns the new id. */
export async function pushArtifact(t: TestApp, auth: { Authorization: string }, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await request(t.app).post("/api/v1/artifacts").set(auth).send(minimalArtifact(overrides));
  if (res.status !== 201) throw new Error(`push failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.artifactId as string;
}

export async function validateArtifact(t: TestApp, artifactId: string, by = "ana@acme.test"): Promise<void> {
  await request(t.app).post(`/admin/v1/artifacts/${artifactId}/validate`).set(adminAuth(t.adminToken)).send({ by }).expect(200);
}

export async function disputeArtifact(t: TestApp, artifactId: string, reason = "Wrong date range", by = "ana@acme.test"): Promise<void> {
  await request(t.app).post(`/admin/v1/artifacts/${artifactId}/dispute`).set(adminAuth(t.adminToken)).send({ by, reason }).expect(200);
}

/** Pushes and validates: the artifact becomes searchable and fetchable. */
export async function validatedArtifact(t: TestApp, auth: { Authorization: string }, overrides: Record<string, unknown> = {}): Promise<string> {
  const id = await pushArtifact(t, auth, overrides);
  await validateArtifact(t, id);
  return id;
}
