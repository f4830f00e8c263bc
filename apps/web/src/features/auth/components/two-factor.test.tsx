import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  calls,
  findOpenDialog,
  json,
  mockApi,
  renderApp,
  signedIn,
  storeSession,
  testUser,
  trialAnswer,
} from "../../../test/render-app.tsx";

const challenge = "c".repeat(43);
const qrCode = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"></svg>')}`;
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jk${String(i).padStart(2, "2")}`.slice(0, 14));
const bodyOf = (fetchMock: ReturnType<typeof mockApi>, call: string) => {
  const found = fetchMock.mock.calls.find(
    ([input, init]) => `${init?.method ?? "GET"} ${new URL(String(input), "http://x").pathname}` === call,
  );
  return JSON.parse(String(found?.[1]?.body)) as unknown;
};

async function signInWithPassword(user: ReturnType<typeof renderApp>["user"]) {
  await user.type(await screen.findByLabelText("Email"), "ada@example.com");
  await user.type(screen.getByLabelText("Password"), "correct horse");
  await user.click(screen.getByRole("button", { name: "Sign in" }));
  return screen.findByRole("form", { name: "Two-factor sign-in" });
}

describe("signing in with two-factor sign-in", () => {
  it("asks for the code after the password and signs in with it", async () => {
    const fetchMock = mockApi({
      "POST /api/auth/login": () => json(200, { twoFactorRequired: true, challenge }),
      "POST /api/auth/login/2fa": () =>
        json(200, { token: "new-token", user: { ...testUser, twoFactorEnabled: true } }),
      "GET /api/trial/status": () => json(200, trialAnswer),
    });
    const { user, router } = renderApp("/login");
    const form = await signInWithPassword(user);
    // No session yet: the password alone signed nobody in.
    expect(localStorage.getItem("cove.session")).toBeNull();

    await user.click(within(form).getByRole("button", { name: "Verify and sign in" }));
    expect(await within(form).findByText("Enter the 6-digit code from your authenticator app")).toBeInTheDocument();
    expect(calls(fetchMock).filter((c) => c.includes("/login/2fa"))).toHaveLength(0);

    await user.type(within(form).getByLabelText("Authentication code"), "123 456");
    await user.click(within(form).getByRole("button", { name: "Verify and sign in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(bodyOf(fetchMock, "POST /api/auth/login/2fa")).toEqual({ challenge, code: "123 456" });
    expect(localStorage.getItem("cove.session")).toContain("new-token");
  });

  it("shows the server's message for a wrong code, and switches to a recovery code", async () => {
    let attempts = 0;
    const fetchMock = mockApi({
      "POST /api/auth/login": () => json(200, { twoFactorRequired: true, challenge }),
      "POST /api/auth/login/2fa": () =>
        ++attempts === 1
          ? json(401, { error: "That code is not correct.", code: "INVALID_CREDENTIALS" })
          : json(200, { token: "new-token", user: testUser }),
      "GET /api/trial/status": () => json(200, trialAnswer),
    });
    const { user, router } = renderApp("/login");
    const form = await signInWithPassword(user);
    await user.type(within(form).getByLabelText("Authentication code"), "000000");
    await user.click(within(form).getByRole("button", { name: "Verify and sign in" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent("That code is not correct.");

    await user.click(within(form).getByRole("button", { name: "Use a recovery code" }));
    const field = within(form).getByLabelText("Recovery code");
    await user.type(field, "abcd-efgh-jkmn");
    await user.click(within(form).getByRole("button", { name: "Verify and sign in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(bodyOf(fetchMock, "POST /api/auth/login/2fa")).toEqual({ challenge, code: "000000" });
    const last = fetchMock.mock.calls.filter(([input]) => String(input).includes("/login/2fa")).at(-1);
    expect(JSON.parse(String(last?.[1]?.body))).toEqual({ challenge, recoveryCode: "abcd-efgh-jkmn" });
  });

  it("goes back to the password with Start over", async () => {
    mockApi({ "POST /api/auth/login": () => json(200, { twoFactorRequired: true, challenge }) });
    const { user } = renderApp("/login");
    const form = await signInWithPassword(user);
    await user.click(within(form).getByRole("button", { name: "Start over" }));
    expect(await screen.findByRole("form", { name: "Sign in" })).toBeInTheDocument();
  });
});

describe("the enrolment a required member is taken to", () => {
  it("shows only the set-up until two-factor sign-in is on, then the recovery codes once", async () => {
    const required = { ...testUser, role: "agent" as const, twoFactorRequired: true };
    let enabled = false;
    const fetchMock = signedIn(
      {
        "GET /api/auth/me": () => json(200, { user: { ...required, twoFactorEnabled: enabled } }),
        "POST /api/auth/2fa/setup": () =>
          json(200, { secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/Cove:ada", qrCode }),
        "POST /api/auth/2fa/enable": () => {
          enabled = true;
          return json(200, { recoveryCodes });
        },
      },
      required,
    );
    const { user, router } = renderApp("/tickets");
    expect(await screen.findByRole("heading", { name: "Set up two-factor sign-in" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/two-factor-setup");
    const image = await screen.findByRole("img", { name: "QR code to scan with your authenticator app" });
    expect(image).toHaveAttribute("src", qrCode);
    expect(screen.getByText("JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP")).toBeInTheDocument();
    // Nothing of the app around it: no navigation.
    expect(screen.queryByRole("navigation", { name: /main/i })).toBeNull();

    await user.type(screen.getByLabelText("Code from your app"), "654321");
    await user.click(screen.getByRole("button", { name: "Turn on two-factor sign-in" }));
    const codes = await screen.findByRole("region", { name: "Recovery codes" });
    expect(within(codes).getAllByRole("listitem")).toHaveLength(10);
    expect(within(codes).getByRole("button", { name: "Copy" })).toBeInTheDocument();
    expect(within(codes).getByRole("button", { name: "Download" })).toBeInTheDocument();
    expect(bodyOf(fetchMock, "POST /api/auth/2fa/enable")).toEqual({ code: "654321" });

    await user.click(within(codes).getByRole("button", { name: "Continue to Cove" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });
});

describe("a requirement turned on while signed in", () => {
  it("takes the member to the set-up when the API answers TWO_FACTOR_ENROLMENT_REQUIRED", async () => {
    storeSession();
    const refusal = {
      error: "Your organization requires two-factor sign-in. Set it up to continue.",
      code: "TWO_FACTOR_ENROLMENT_REQUIRED",
    };
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/trial/status": () => json(403, refusal),
      "GET /api/tickets": () => json(403, refusal),
      "POST /api/auth/2fa/setup": () =>
        json(200, { secret: "JBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/Cove:ada", qrCode }),
    });
    const { router } = renderApp("/tickets");
    expect(
      await screen.findByRole("heading", { name: "Set up two-factor sign-in" }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/two-factor-setup");
  });
});

describe("the privacy policy", () => {
  it("states role-based access for team members and two-factor sign-in for administrative access", async () => {
    mockApi({});
    renderApp("/privacy");
    const section = await screen.findByRole("heading", { name: /Data Security/ }, { timeout: 10_000 });
    const text = section.closest("section")?.textContent ?? document.body.textContent ?? "";
    expect(text).toMatch(/Team members have role-based access/);
    expect(text).toMatch(/Administrative access is protected by two-factor sign-in/);
    expect(text).toMatch(/TLS 1\.3/);
  });
});

describe("the profile's security section", () => {
  const sessions = {
    sessions: [
      {
        id: "11111111-1111-4111-8111-111111111111",
        current: true,
        device: "Chrome on macOS",
        ip: "203.0.113.9",
        createdAt: "2026-11-28T09:00:00.000Z",
        lastSeenAt: "2026-11-29T09:00:00.000Z",
      },
      {
        id: "22222222-2222-4222-8222-222222222222",
        current: false,
        device: "Firefox on Windows",
        ip: "198.51.100.4",
        createdAt: "2026-11-20T09:00:00.000Z",
        lastSeenAt: null,
      },
    ],
  };

  it("turns two-factor sign-in on from the profile and shows the recovery codes", async () => {
    let enabled = false;
    signedIn({
      "GET /api/auth/me": () => json(200, { user: { ...testUser, twoFactorEnabled: enabled } }),
      "GET /api/auth/2fa": () => json(200, { enabled, required: false, recoveryCodesLeft: enabled ? 10 : 0 }),
      "GET /api/auth/sessions": () => json(200, sessions),
      "POST /api/auth/2fa/setup": () =>
        json(200, { secret: "JBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/Cove:ada", qrCode }),
      "POST /api/auth/2fa/enable": () => {
        enabled = true;
        return json(200, { recoveryCodes });
      },
    });
    const { user } = renderApp("/profile");
    const card = await screen.findByRole("region", { name: "Two-factor sign-in" });
    await user.click(await within(card).findByRole("button", { name: "Turn on two-factor sign-in" }));
    await within(card).findByRole("img", { name: "QR code to scan with your authenticator app" });
    await user.type(within(card).getByLabelText("Code from your app"), "12345");
    await user.click(within(card).getByRole("button", { name: "Turn on two-factor sign-in" }));
    expect(await within(card).findByText("Enter the 6-digit code from your authenticator app")).toBeInTheDocument();
    await user.type(within(card).getByLabelText("Code from your app"), "6");
    await user.click(within(card).getByRole("button", { name: "Turn on two-factor sign-in" }));
    const codes = await within(card).findByRole("region", { name: "Recovery codes" });
    expect(
      within(codes)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(recoveryCodes);
    await user.click(within(codes).getByRole("button", { name: "Done" }));
    expect(await within(card).findByText(/10 recovery codes left/)).toBeInTheDocument();
  });

  it("lists where you're signed in, marks this device, and signs out another session", async () => {
    let list = sessions;
    const fetchMock = signedIn({
      "GET /api/auth/2fa": () => json(200, { enabled: false, required: false, recoveryCodesLeft: 0 }),
      "GET /api/auth/sessions": () => json(200, list),
      "DELETE /api/auth/sessions/22222222-2222-4222-8222-222222222222": () => {
        list = { sessions: sessions.sessions.slice(0, 1) };
        return json(200, { message: "Signed out of that session." });
      },
    });
    const { user } = renderApp("/profile");
    const card = await screen.findByRole("region", { name: "Where you're signed in" });
    const rows = await within(card).findAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByText("This device")).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText("203.0.113.9")).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).queryByText("This device")).toBeNull();
    expect(within(rows[0] as HTMLElement).queryByRole("button", { name: /Sign out/ })).toBeNull();

    await user.click(within(card).getByRole("button", { name: "Sign out Firefox on Windows" }));
    const dialog = await findOpenDialog("alertdialog", { name: "Sign out this session?" });
    await user.click(within(dialog).getByRole("button", { name: "Sign out" }));
    expect(await screen.findByText("Signed out of that session.")).toBeInTheDocument();
    await waitFor(() => expect(within(card).getAllByRole("listitem")).toHaveLength(1));
    expect(calls(fetchMock)).toContain("DELETE /api/auth/sessions/22222222-2222-4222-8222-222222222222");
    expect(within(card).getByText("You are not signed in anywhere else.")).toBeInTheDocument();
  });

  it("asks for a current code to turn it off, and hides Turn off when the organization requires it", async () => {
    signedIn(
      {
        "GET /api/auth/2fa": () => json(200, { enabled: true, required: true, recoveryCodesLeft: 3 }),
        "GET /api/auth/sessions": () => json(200, { sessions: sessions.sessions.slice(0, 1) }),
      },
      { ...testUser, twoFactorEnabled: true, twoFactorRequired: true },
    );
    renderApp("/profile");
    const card = await screen.findByRole("region", { name: "Two-factor sign-in" });
    expect(await within(card).findByText(/3 recovery codes left/)).toHaveTextContent("Your organization requires it.");
    expect(within(card).getByRole("button", { name: "New recovery codes" })).toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: "Turn off" })).toBeNull();
  });
});

describe("Settings > Security", () => {
  it("requires two-factor sign-in for admins", async () => {
    const fetchMock = signedIn({
      "GET /api/settings/security": () => json(200, { twoFactorPolicy: "off" }),
      "PUT /api/settings/security": () => json(200, { twoFactorPolicy: "admins" }),
    });
    const { user } = renderApp("/settings?tab=security");
    const form = await screen.findByRole("form", { name: "Security" });
    await user.click(within(form).getByLabelText("Require two-factor sign-in for admins"));
    await user.click(within(form).getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "PUT /api/settings/security")).toEqual({ twoFactorPolicy: "admins" });
  });
});
