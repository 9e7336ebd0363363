import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";

const TOKEN = { RELAY_TOKEN: "rly_a_long_enough_relay_token" };

describe("relay configuration", () => {
  it("defaults to development on 127.0.0.1:2587 with a generated certificate", () => {
    const config = loadConfig(TOKEN);
    expect(config).toMatchObject({
      port: 2587,
      host: "127.0.0.1",
      apiUrl: "http://127.0.0.1:8787",
      maxMessageBytes: 25 * 1024 * 1024,
      maxBufferedBytes: 256 * 1024 * 1024,
      tls: { generate: true },
    });
    expect(config.tls.certPath).toMatch(/smtp-relay\/\.certs\/cert\.pem$/);
  });

  it("reads every setting from the environment", () => {
    const config = loadConfig({
      ...TOKEN,
      SMTP_PORT: "587",
      SMTP_HOST: "0.0.0.0",
      SMTP_TLS_CERT: "/etc/cert.pem",
      SMTP_TLS_KEY: "/etc/key.pem",
      RELAY_API_URL: "https://api.example.com/",
      SMTP_MAX_CLIENTS: "50",
      SMTP_IDLE_TIMEOUT_MS: "1000",
      SMTP_MAX_BUFFERED_BYTES: "104857600",
    });
    expect(config).toMatchObject({
      port: 587,
      host: "0.0.0.0",
      apiUrl: "https://api.example.com",
      maxClients: 50,
      idleTimeoutMs: 1000,
      maxBufferedBytes: 100 * 1024 * 1024,
      tls: { certPath: "/etc/cert.pem", keyPath: "/etc/key.pem", generate: false },
    });
  });

  it("names every problem at once, and production needs a real certificate", () => {
    expect(() => loadConfig({ SMTP_PORT: "eighty", RELAY_API_URL: "not a url" })).toThrow(
      /SMTP_PORT[\s\S]*RELAY_API_URL[\s\S]*RELAY_TOKEN/,
    );
    expect(() => loadConfig({ ...TOKEN, SMTP_TLS_CERT: "/etc/cert.pem" })).toThrow(
      /both SMTP_TLS_CERT and SMTP_TLS_KEY/,
    );
    expect(() => loadConfig({ ...TOKEN, NODE_ENV: "production" })).toThrow(/production needs SMTP_TLS_CERT/);
    expect(() =>
      loadConfig({ ...TOKEN, SMTP_MAX_MESSAGE_BYTES: "2000000", SMTP_MAX_BUFFERED_BYTES: "1000000" }),
    ).toThrow(/SMTP_MAX_BUFFERED_BYTES: must be at least SMTP_MAX_MESSAGE_BYTES/);
  });
});
