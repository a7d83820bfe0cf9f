import { ArtifactDetailSchema, ArtifactIdParamsSchema } from "../../contracts/artifacts";
import { ErrorSchema } from "../../contracts/common";
import { defineRoute } from "../../http/route";
import { toArtifactDetail } from "./to-wire";

export const getArtifactRoute = defineRoute({
  method: "get",
  path: "/api/v1/artifacts/{id}",
  operationId: "getArtifact",
  summary: "Fetch a validated artifact",
  description: "The full artifact, with its content cut to 20,000 characters.",
  tags: ["Artifacts"],
  auth: { kind: "apiKey", scope: "artifacts:read" },
  request: { params: ArtifactIdParamsSchema },
  responses: {
    200: { description: "The artifact.", schema: ArtifactDetailSchema },
    404: { description: "No validated artifact with this id in the key's workspace.", schema: ErrorSchema },
  },
  handle: async ({ params }, { principal, services }) => ({
    status: 200,
    body: toArtifactDetail(await services.artifacts.getValidated(principal, params.id)),
  }),
});
