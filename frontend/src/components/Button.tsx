import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Link, type LinkProps } from "react-router";
import styles from "./Button.module.css";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

interface StyleProps {
  variant?: ButtonVariant;
  size?: "normal" | "small";
}

function classes({ variant = "primary", size = "normal" }: StyleProps, extra?: string): string {
  return [styles.button, styles[variant], size === "small" ? styles.small : "", extra ?? ""]
    .filter(Boolean)
    .join(" ");
}

type ButtonProps = StyleProps & ButtonHTMLAttributes<HTMLButtonElement> & { children: ReactNode };

export function Button({ variant, size, className, type = "button", ...rest }: ButtonProps) {
  return <button type={type} className={classes({ variant, size }, className)} {...rest} />;
}

type ButtonLinkProps = StyleProps & LinkProps;

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({ variant, size, className, ...rest }: ButtonLinkProps) {
  return <Link className={classes({ variant, size }, className)} {...rest} />;
}
