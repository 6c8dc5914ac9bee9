import { LandingPage } from "~/components/landing-page";

export default function Index() {
  return <LandingPage />;
}
