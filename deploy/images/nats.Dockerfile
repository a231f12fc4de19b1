# Debian's nats-server (BASE: a minbase root filesystem with the package and the user `app`).
# The configuration comes from a mounted file (deploy/nats/nats.conf in the compose stack).
ARG BASE
FROM ${BASE}
ARG APP_UID=10001
USER ${APP_UID}:${APP_UID}
EXPOSE 4222 6222 8222
ENTRYPOINT ["/usr/sbin/nats-server"]
CMD ["--config", "/etc/nats/nats.conf"]
