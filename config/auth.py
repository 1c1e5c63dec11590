"""The project's authentication backend: django-axes' lockout check, then Django's own.

django-axes' AxesStandaloneBackend refuses a locked-out account (it raises, and
`django.contrib.auth.authenticate` answers None) but authenticates nobody; Django's ModelBackend
checks the password. Joined in one backend, `django.contrib.auth.login(request, user)` needs
no `backend` argument (Django asks for one when several backends are configured).
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest


class LockoutModelBackend(AxesStandaloneBackend, ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if request is not None:
            # Raises AxesBackendPermissionDenied when the account is locked out.
            AxesStandaloneBackend.authenticate(
                self, request, username=username, password=password, **kwargs
            )
        # Without a request (a management command, the test client's login) there is no
        # client to lock out.
        return ModelBackend.authenticate(
            self, request, username=username, password=password, **kwargs
        )
