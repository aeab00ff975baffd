"""HTTP routes for one's own profile, photo and password, and the public educator list."""

from fastapi import Request, UploadFile

from tradeideas.core.deps import AppSettings, DbSession
from tradeideas.core.routing import api_router
from tradeideas.permissions import AnyUser
from tradeideas.profiles import service
from tradeideas.profiles.schemas import EducatorOut, MessageResponse, PasswordChange, ProfileOut, ProfileUpdate

router = api_router(prefix="/api", tags=["profiles"])


@router.get("/me/profile")
async def get_profile(principal: AnyUser) -> ProfileOut:
    """The caller's own profile (educators also get their trading profile)."""
    return service.profile_out(principal.user)


@router.put("/me/profile")
async def update_profile(body: ProfileUpdate, principal: AnyUser, db: DbSession) -> ProfileOut:
    """Change any subset of the caller's profile; omitted fields stay as they are."""
    return service.profile_out(await service.update_profile(db, principal.user, body))


@router.post("/me/avatar", responses={503: {}})
async def upload_avatar(file: UploadFile, principal: AnyUser, db: DbSession, settings: AppSettings) -> ProfileOut:
    """Upload the caller's profile photo (images only; re-encoded by the server)."""
    return service.profile_out(await service.set_avatar(db, settings, principal.user, file))


@router.delete("/me/avatar")
async def delete_avatar(principal: AnyUser, db: DbSession) -> ProfileOut:
    """Remove the caller's profile photo (initials are shown instead)."""
    return service.profile_out(await service.remove_avatar(db, principal.user))


@router.post("/me/password", responses={422: {}})
async def change_password(
    body: PasswordChange, principal: AnyUser, db: DbSession, settings: AppSettings, request: Request
) -> MessageResponse:
    """Change the caller's password; ends their other sessions and keeps this one."""
    client = request.client.host if request.client else "unknown"
    await service.change_password(
        db, settings, principal.user, principal.session_id, body.current_password, body.new_password, client
    )
    return MessageResponse(message=service.PASSWORD_CHANGED)


@router.get("/users/educators")
async def list_educators(_: AnyUser, db: DbSession) -> list[EducatorOut]:
    """The educators' public profiles (no e-mail addresses)."""
    return await service.list_educators(db)
