import { HEALTH_HEADERS, healthAnswer } from "~/platform/availability.server";

export async function loader() {
  const { status, body } = await healthAnswer();
  return new Response(body, { status, headers: HEALTH_HEADERS });
}
