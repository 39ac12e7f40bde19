// Verifies one webhook delivery the daemon made with the reference Standard Webhooks
// implementation (npm `standardwebhooks`), independent of the daemon's own code.
// Usage: node verify.mjs <delivery.json>, where the file holds
//   {"secret": "whsec_...", "body": "<raw body>", "headers": {"webhook-id": ..., ...}}.
// Exit 0 and prints {"ok": true, "payload": ...} when the signature verifies and a
// tampered copy of the body does not; exit 1 with the reason otherwise.
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";

const delivery = JSON.parse(readFileSync(process.argv[2], "utf8"));
const wh = new Webhook(delivery.secret);
try {
  const payload = wh.verify(delivery.body, delivery.headers);
  let tamperedAccepted = true;
  try {
    wh.verify(delivery.body + " ", delivery.headers);
  } catch {
    tamperedAccepted = false;
  }
  if (tamperedAccepted) {
    console.log(JSON.stringify({ ok: false, reason: "a tampered body verified" }));
    process.exit(1);
  }
  console.log(JSON.stringify({ ok: true, payload }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, reason: String(e && e.message ? e.message : e) }));
  process.exit(1);
}
