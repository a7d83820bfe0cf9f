import { ErrorSchema, NonEmptyString } from "../../contracts/common";
import { z } from "../../contracts/zod";
import { defineRoute } from "../../http/route";
import { DOWNLOADS_PATH } from "../../storage/database-file-storage";
import { attachmentDisposition } from "../../storage/file-storage";

/**
 * The signed, expiring download links of the `database` file storage. Public on purpose: the
 * HMAC-signed token is the credential, so an agent can hand the link to a tool that has no key.
 */
export const downloadFileRoute = defineRoute({
  method: "get",
  path: `${DOWNLOADS_PATH}/{token}`,
  operationId: "downloadFile",
  summary: "Download a skill file through a signed link",
  tags: ["Files"],
  auth: { kind: "public" },
  request: { params: z.object({ token: NonEmptyString }) },
  responses: {
    200: { description: "The file's exact bytes, as an attachment." },
    403: { description: "The link is not valid or has expired.", schema: ErrorSchema },
    404: { description: "The file no longer exists.", schema: ErrorSchema },
    502: { description: "File storage unreachable.", schema: ErrorSchema },
  },
  handle: async ({ params }, { services }) => {
    const file = await services.downloads.open(params.token);
    return {
      status: 200,
      body: file.bytes,
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": attachmentDisposition(file.filename),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    };
  },
});
