import { generate } from "selfsigned";

type SelfsignedOptions = NonNullable<Parameters<typeof generate>[1]>;

/** A private CA and a certificate it signed for the loopback names, made fresh for each test run. */
export interface TestTls {
  caCert: string;
  key: string;
  cert: string;
}

// RSA, not EC: selfsigned's EC path fails against the second @peculiar/asn1-schema copy in this tree.
const common = (): SelfsignedOptions => {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 7 * 24 * 3600_000);
  return { notBeforeDate, notAfterDate, algorithm: "sha256", keyType: "rsa" };
};

// The client checks the name it dialled, so the certificate covers both ways of writing loopback.
const loopbackServer = (): SelfsignedOptions => ({
  ...common(),
  extensions: [
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [
        { type: 2, value: "localhost" },
        { type: 7, ip: "127.0.0.1" },
      ],
    },
  ],
});

export async function createTestTls(): Promise<TestTls> {
  const ca = await generate([{ name: "commonName", value: "support-mail-service test CA" }], {
    ...common(),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: "commonName", value: "localhost" }], {
    ...loopbackServer(),
    ca: { key: ca.private, cert: ca.cert },
  });
  return { caCert: ca.cert, key: server.private, cert: server.cert };
}

/** Right names, but signed by nobody the client trusts: a handshake with it must fail. */
export async function createUntrustedCert(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: "commonName", value: "localhost" }], loopbackServer());
  return { key: pems.private, cert: pems.cert };
}
