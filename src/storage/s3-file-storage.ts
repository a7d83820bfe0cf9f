import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Config } from "../config";
import { attachmentDisposition, reachStorage, type FileStorage } from "./file-storage";

export type S3Settings = Extract<Config["fileStorage"], { kind: "s3" }>;

/**
 * Any S3-compatible store through the AWS SDK; downloads are presigned GET URLs that make the
 * store answer with the file's name and type. Short timeouts and one retry, so an unreachable
 * store becomes a prompt 502 rather than a hung request.
 */
export function createS3FileStorage(settings: S3Settings): FileStorage {
  const client = new S3Client({
    region: settings.region ?? "us-east-1",
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 10_000 },
  });
  const Bucket = settings.bucket;
  return {
    put: (Key, bytes, contentType) =>
      reachStorage("put", async () => {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentType: contentType }));
      }),
    get: (Key) =>
      reachStorage("get", async () => {
        try {
          const object = await client.send(new GetObjectCommand({ Bucket, Key }));
          return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
        } catch (error) {
          if (error instanceof NoSuchKey) return null;
          throw error;
        }
      }),
    // One request a key: DeleteObjects needs a Content-MD5 that not every S3-compatible store takes, and a skill has few files.
    remove: (keys) =>
      reachStorage("delete", async () => {
        for (const Key of keys) await client.send(new DeleteObjectCommand({ Bucket, Key }));
      }),
    // Presigning is local, but it resolves credentials, which can fail.
    downloadUrl: (Key, { filename, contentType, expiresInSeconds }) =>
      reachStorage("presign", () => getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key,
          ResponseContentType: contentType,
          ResponseContentDisposition: attachmentDisposition(filename),
        }),
        { expiresIn: expiresInSeconds },
      )),
  };
}
