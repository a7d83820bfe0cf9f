import type { Request, Response, Router } from "express";
import { isScope, READ_SCOPES, SCOPE_DESCRIPTIONS } from "../auth/scopes";
import { ApiError } from "../http/api-error";
import { showInvisibleCharacters } from "../lib/visible-text";
import { CONSENT_PATH, type AuthorizationServer } from "../oauth/authorization-server";
import type { Services } from "../services";
import { consentPage, continuePage } from "./pages/connect";
import { chromeOf, localsOf, redirect, sendPage, workspaceOf } from "./respond";

type Provider = Awaited<ReturnType<AuthorizationServer["provider"]>>;
type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

const UID = /^[\w-]{8,64}$/;

/**
 * Where the app sends the person back, as the person should read it: the host of an https address,
 * and the whole address otherwise (plain http to this machine, or a native app's private-use
 * scheme), so that what is not https says so.
 */
function returnAddressOf(redirectUri: unknown): string {
  const url = new URL(String(redirectUri));
  return url.protocol === "https:" ? url.host : url.href;
}

/** The interaction the authorization server's cookie names, which must be the one in the path. */
async function interactionOf(provider: Provider, req: Request, res: Response): Promise<Interaction> {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(req, res);
  } catch {
    throw new ApiError("bad_request", "This connection request expired or was opened in another browser: start connecting again from the app");
  }
  if (interaction.uid !== req.params.uid) throw new ApiError("bad_request", "This connection request is not the one this browser started: start connecting again from the app");
  return interaction;
}

/**
 * Consent for OAuth clients (docs/mcp.md): a signed-in console account chooses one of its
 * workspaces and read scopes for the app, or denies. The page is mounted before the console's
 * sign-in check, because a connector opens it from another site and the SameSite=Strict session
 * cookie does not come with that first navigation; the decision is a form like any other, mounted
 * after the sign-in and anti-forgery checks.
 */
export function consentRoutes(services: Services, authorization: AuthorizationServer) {
  async function page(req: Request, res: Response) {
    const uid = String(req.params.uid);
    if (!UID.test(uid)) throw new ApiError("not_found", "No such connection request");
    const here = `${CONSENT_PATH}/${uid}`;
    if (!localsOf(res).reviewer) {
      // Once more from this origin: a same-site navigation carries the session cookie if there is one.
      if (req.query.again === undefined) {
        return sendPage(res, 200, continuePage(chromeOf(res), "Connecting an app", "Checking whether you are signed in to the console…", `${here}?again`));
      }
      return redirect(res, `/console/sign-in?next=${encodeURIComponent(here)}`);
    }
    const provider = await authorization.provider(req);
    const interaction = await interactionOf(provider, req, res);
    await showConsent(res, provider, interaction, 200);
  }

  async function showConsent(res: Response, provider: Provider, interaction: Interaction, status: number, error?: string, ticked?: string[]) {
    const { reviewer, csrfToken } = localsOf(res);
    if (!reviewer || reviewer.workspaces.length === 0) throw new ApiError("forbidden", "Your console account reviews no workspace, so it has none to connect an app to");
    const client = await provider.Client.find(String(interaction.params.client_id));
    if (!client) throw new ApiError("bad_request", "The app that asked is no longer registered: start connecting again from the app");
    const requested = String(interaction.params.scope ?? "").split(" ").filter(Boolean);
    const asked = requested.filter((scope) => (READ_SCOPES as readonly string[]).includes(scope));
    const checked = ticked ?? (asked.length ? asked : [...READ_SCOPES]);
    sendPage(
      res,
      status,
      consentPage(
        { ...chromeOf(res), csrfToken: csrfToken ?? "" },
        {
          uid: interaction.uid,
          // Registration refuses invisible and text-direction characters; a client registered before
          // that shows them written out.
          clientName: showInvisibleCharacters(client.clientName ?? client.clientId),
          clientId: showInvisibleCharacters(client.clientId),
          returnAddress: returnAddressOf(interaction.params.redirect_uri),
          workspaces: reviewer.workspaces,
          scopes: READ_SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope], checked: checked.includes(scope) })),
          refused: requested.filter((scope) => !(READ_SCOPES as readonly string[]).includes(scope) && scope !== "offline_access"),
          error,
        },
      ),
    );
  }

  async function decide(req: Request, res: Response) {
    const reviewer = localsOf(res).reviewer!;
    const provider = await authorization.provider(req);
    const interaction = await interactionOf(provider, req, res);
    const body = req.body as Record<string, unknown>;
    let result: Parameters<Provider["interactionResult"]>[2];
    if (body.decision === "approve") {
      const workspace = workspaceOf(res, body.workspace);
      if (!workspace) throw new ApiError("forbidden", "Your console account reviews no workspace");
      const scopes = [body.scopes ?? []].flat().map(String).filter((scope) => isScope(scope) && (READ_SCOPES as readonly string[]).includes(scope));
      if (scopes.length === 0) return showConsent(res, provider, interaction, 400, "Tick at least one scope, or deny.", []);
      const clientId = String(interaction.params.client_id);
      const client = await provider.Client.find(clientId);
      if (!client) throw new ApiError("bad_request", "The app that asked is no longer registered: start connecting again from the app");
      const grant = new provider.Grant({ accountId: reviewer.reviewerId, clientId });
      const resource = authorization.resource(req);
      // The server knows the read scopes as its own and as the resource's: both are granted, and
      // what was asked for and not granted is refused explicitly, or the server would ask again.
      grant.addOIDCScope(scopes.join(" "));
      grant.addResourceScope(resource, scopes.join(" "));
      const refused = String(interaction.params.scope ?? "").split(" ").filter((scope) => scope && !scopes.includes(scope));
      if (refused.length) {
        grant.rejectOIDCScope(refused.join(" "));
        grant.rejectResourceScope(resource, refused.join(" "));
      }
      const grantId = await grant.save();
      await services.connectedApps.create(workspace.id, {
        id: grantId,
        reviewerId: reviewer.reviewerId,
        grantedBy: reviewer.email,
        clientId,
        clientName: showInvisibleCharacters(client.clientName ?? clientId),
        redirectHost: returnAddressOf(interaction.params.redirect_uri),
        scopes,
      });
      result = { login: { accountId: reviewer.reviewerId, remember: false }, consent: { grantId } };
    } else {
      result = { error: "access_denied", error_description: "The person denied the app access" };
    }
    const target = await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
    sendPage(res, 200, continuePage(chromeOf(res), "Returning to the app", "Taking you back to the app…", target));
  }

  return {
    mountPage: (router: Router) => router.get("/connect/:uid", page),
    mountDecision: (router: Router) => router.post("/connect/:uid", decide),
  };
}
