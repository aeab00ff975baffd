"""HTTP routes for logging in and out and reading the current user."""

from fastapi import Request, Response, status

from tradeideas.auth import service
from tradeideas.auth.schemas import CurrentUser, LoginRequest, LoginResponse
from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.core.routing import api_router
from tradeideas.permissions import Public, SignedIn, clear_session_cookie, set_session_cookie

router = api_router(prefix="/api/auth", tags=["auth"])


@router.post("/login", dependencies=[Public], responses={401: {}, 403: {}, 429: {}})
async def login(
    body: LoginRequest, request: Request, response: Response, db: DbSession, settings: AppSettings
) -> LoginResponse:
    """Log in with e-mail and password; sets the session cookie and returns the token and user."""
    client = request.client.host if request.client else "unknown"
    issued = await service.login(
        db, settings, email=body.email, password=body.password, selected_role=body.selected_role, client=client
    )
    set_session_cookie(request, response, issued.token, settings.session_days * 86400)
    return LoginResponse(
        message="Login successful", session_token=issued.token, user=service.current_user_out(issued.user)
    )


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
async def logout(principal: SignedIn, db: DbSession, response: Response) -> None:
    """End the current session at once; its cookie and token stop working."""
    await service.revoke_session(db, principal.user, principal.session_id)
    clear_session_cookie(response)


@router.get("/user")
async def current_user(principal: SignedIn) -> CurrentUser:
    """The logged-in user; also slides the session's 30-day lifetime forward once a day."""
    return service.current_user_out(principal.user)
