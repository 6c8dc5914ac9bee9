// msw for server-side tests: one handler file per outside service, collected here.
// Requests to this machine (the local issuer, the storage emulator) pass through untouched.
import { http, passthrough } from "msw";
import { setupServer } from "msw/node";
import { paypalHandlers } from "./paypal";

const local = http.all(/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//, () => passthrough());

export const server = setupServer(local, ...paypalHandlers);
