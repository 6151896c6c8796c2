// The phone of the Matrix bridge's tests: matrix-js-sdk with its Rust crypto (the
// engine Element Web ships), logged in as a person, cross-signed, in Element's strict
// mode (keys only to, and messages only from, devices their owner signed). It joins
// the rooms it is invited to and reports what it reads, decrypted, as JSON lines on
// stdout; it takes commands as JSON lines on stdin: vote, reply in a thread, set a
// pusher. Run: node phone.mjs BASE_URL USER PASSWORD [--unsigned]
import * as sdk from "matrix-js-sdk";
import { ClientEvent, RoomEvent, RoomMemberEvent, MatrixEventEvent } from "matrix-js-sdk";
import { OnlySignedDevicesIsolationMode } from "matrix-js-sdk/lib/crypto-api/index.js";
import { logger } from "matrix-js-sdk/lib/logger.js";
import readline from "node:readline";
import { webcrypto } from "node:crypto";

logger.setLevel("error");
const [baseUrl, user, password, ...flags] = process.argv.slice(2);
const unsigned = flags.includes("--unsigned");
// A new identity (new cross-signing keys), as after setting Element up again from scratch.
const fresh = flags.includes("--new-identity");
const say = (what) => process.stdout.write(JSON.stringify(what) + "\n");

const login = await sdk.createClient({ baseUrl }).loginRequest({
  type: "m.login.password",
  identifier: { type: "m.id.user", user },
  password,
  initial_device_display_name: unsigned ? "unsigned phone" : "phone",
});
const client = sdk.createClient({
  baseUrl,
  userId: login.user_id,
  accessToken: login.access_token,
  deviceId: login.device_id,
});
await client.initRustCrypto({ useIndexedDB: false });
const crypto = client.getCrypto();
// A device its owner never signed cannot send in strict mode: it plays an older client.
if (!unsigned) crypto.setDeviceIsolationMode(new OnlySignedDevicesIsolationMode());

/** An encrypted attachment, fetched and decrypted as Element does (AES-CTR, its SHA-256 checked). */
async function fileText(file) {
  const [, server, id] = file.url.match(/^mxc:\/\/([^/]+)\/(.+)$/);
  const response = await fetch(`${baseUrl}/_matrix/client/v1/media/download/${server}/${id}`, {
    headers: { Authorization: `Bearer ${login.access_token}` },
  });
  const data = new Uint8Array(await response.arrayBuffer());
  const digest = Buffer.from(await webcrypto.subtle.digest("SHA-256", data)).toString("base64");
  if (digest.replace(/=+$/, "") !== file.hashes.sha256) throw new Error("the file's hash does not match");
  const key = await webcrypto.subtle.importKey("jwk", file.key, { name: "AES-CTR" }, false, ["decrypt"]);
  const counter = Buffer.from(file.iv, "base64");
  const plain = await webcrypto.subtle.decrypt({ name: "AES-CTR", counter, length: 64 }, key, data);
  return new TextDecoder().decode(plain);
}

const seen = new Set();
async function read(event) {
  if (seen.has(event.getId())) return;
  if (event.isEncrypted()) await client.decryptEventIfNeeded(event);
  // Heard both as it arrives and once decrypted: reported once.
  if (seen.has(event.getId()) || event.isBeingDecrypted() || event.isDecryptionFailure()) return;
  seen.add(event.getId());
  const type = event.getType();
  const content = event.getContent();
  const base = { id: event.getId(), sender: event.getSender(), encrypted: event.isEncrypted() };
  if (type === "org.matrix.msc3381.poll.start") {
    const poll = content["org.matrix.msc3381.poll.start"];
    say({
      poll: {
        ...base,
        question: poll.question["org.matrix.msc1767.text"],
        kind: poll.kind,
        max: poll.max_selections,
        answers: poll.answers.map((a) => ({ id: a.id, text: a["org.matrix.msc1767.text"] })),
      },
    });
  } else if (type === "org.matrix.msc3381.poll.end") {
    say({ end: { ...base, poll: content["m.relates_to"]?.event_id, text: content["org.matrix.msc1767.text"] } });
  } else if (type === "m.room.message") {
    const rel = content["m.relates_to"];
    say({
      message: {
        ...base,
        body: content.body,
        html: content.formatted_body,
        msgtype: content.msgtype,
        thread: rel?.rel_type === "m.thread" ? rel.event_id : null,
        file: content.file ? await fileText(content.file) : null,
      },
    });
  } else if (type === "m.room.redaction") {
    say({ redacted: { ...base, of: event.event.redacts ?? content.redacts } });
  }
}

client.on(RoomEvent.Timeline, (event) => read(event).catch((e) => say({ error: String(e) })));
client.on(MatrixEventEvent.Decrypted, (event) => read(event).catch((e) => say({ error: String(e) })));
client.on(RoomMemberEvent.Membership, (_event, member) => {
  if (member.userId === client.getUserId() && member.membership === "invite") {
    client.joinRoom(member.roomId).then(() => say({ joined: member.roomId }), (e) => say({ error: String(e) }));
  }
});

async function crossSign() {
  await crypto.bootstrapCrossSigning({
    setupNewCrossSigning: fresh,
    authUploadDeviceSigningKeys: async (makeRequest) => {
      try {
        await makeRequest(null);
      } catch (e) {
        const session = e.data?.session;
        await makeRequest({ type: "m.login.password", identifier: { type: "m.id.user", user }, password, session });
      }
    },
  });
}

// A new identity is made before the first sync: a sync in between would bring the old
// one's public keys, and the new private keys would be dropped as not matching them.
if (fresh) await crossSign();
const prepared = new Promise((resolve) =>
  client.on(ClientEvent.Sync, (state) => state === "PREPARED" && resolve()),
);
await client.startClient({ initialSyncLimit: 20 });
await prepared;
if (!unsigned && !fresh) await crossSign();
if (!unsigned) {
  // Ready once this device reads itself as signed by its owner (after a new identity,
  // only once its own keys are fetched again).
  for (let i = 0; i < 300; i++) {
    await crypto.userHasCrossSigningKeys(client.getUserId(), true);
    const status = await crypto.getDeviceVerificationStatus(client.getUserId(), client.getDeviceId());
    if (status?.signedByOwner && (await crypto.isCrossSigningReady())) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const own = await crypto.getDeviceVerificationStatus(client.getUserId(), client.getDeviceId());
say({
  ready: {
    user: client.getUserId(),
    device: client.getDeviceId(),
    signed: Boolean(own?.signedByOwner),
    status: await crypto.getCrossSigningStatus(),
  },
});

const commands = readline.createInterface({ input: process.stdin });
for await (const line of commands) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  try {
    if (c.vote) {
      const sent = await client.sendEvent(c.room, "org.matrix.msc3381.poll.response", {
        "m.relates_to": { rel_type: "m.reference", event_id: c.vote },
        "org.matrix.msc3381.poll.response": { answers: c.answers },
      });
      say({ sent: sent.event_id, of: c.tag ?? "vote" });
    } else if (c.reply) {
      const sent = await client.sendMessage(c.room, c.reply, { msgtype: "m.text", body: c.text });
      say({ sent: sent.event_id, of: c.tag ?? "reply" });
    } else if (c.pusher) {
      await client.setPusher({
        kind: "http",
        app_id: "userq.tests",
        pushkey: client.getDeviceId(),
        app_display_name: "phone",
        device_display_name: "phone",
        lang: "en",
        data: { url: c.pusher, format: "event_id_only" },
        append: false,
      });
      say({ sent: "pusher", of: c.tag ?? "pusher" });
    } else if (c.stop) {
      break;
    }
  } catch (e) {
    say({ error: String(e), of: c.tag });
  }
}
client.stopClient();
process.exit(0);
