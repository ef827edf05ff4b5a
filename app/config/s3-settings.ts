/** Where media go when they are kept in S3-compatible object storage. */
export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service other than AWS (MinIO, R2, Spaces…); null for AWS itself. */
  endpoint: string | null;
  /** Where browsers fetch objects: the bucket's public address or a CDN in front of it. */
  publicUrl: string;
  /** Address buckets by path (`endpoint/bucket/key`), which most S3-compatible services need. */
  forcePathStyle: boolean;
  /** Null: the SDK's usual sources (AWS_ACCESS_KEY_ID…, an instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}
