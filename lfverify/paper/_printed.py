"""The paper's statements as printed: the LaTeX source of every claim that :mod:`lfverify.proofs` derives.

Each entry is the verbatim LaTeX of the statement (the theorem-like environment; a figure's caption; for the
App. A.5 discussion, the subsection's text), keyed by its label.  They are transcribed once, here, and a test
(tests/proofs/test_proofs.py) checks that each one occurs verbatim in the .tex.  :mod:`lfverify.proofs` shows them
in the documents of the top-level ``proofs/`` folder as "the claim as printed".
"""

from __future__ import annotations

__all__ = ["PRINTED_STATEMENTS"]

PRINTED_STATEMENTS = {
    "def:metric": r"""\begin{definition}[Linear-fractional utility\footnote{
    As mentioned by \citet{Dembczynski:2017}, there is a dichotomy in the definition of performance metrics: population utility (PU) and expected test utility (ETU).
    We adopt PU, which is defined as the linear-fractional transform of the population confusion matrix in this context.
    This is convenient to avoid estimating $\eta$ compared to ETU.
}]
    \label{def:metric}
    A \emph{linear-fractional utility} $\calU: \calF \to [0, 1]$ is defined as
    \begin{align}
        \calU(f) \doteq
        \frac{\E_X[W_{0}(f(X), \eta(X))]}{\E_X[W_{1}(f(X), \eta(X))]}
        ,
        \label{eq:generalized-metric}
    \end{align}
    where $W_{0}, W_{1}: \R \times [0, 1] \to \R$ are class-conditional score functions given as
    \begin{align*}
        W_{k}(\xi, q) \doteq a_{k,+1}\ell(-\xi)q + a_{k,-1}\ell(-\xi)(1 - q) + b_k,
    \end{align*}
    and $a_{0,+1} > 0, a_{0,-1} \leq 0, b_0 \in \R, a_{1,+1} \geq 0, a_{1,-1} \geq 0, b_1 \in \R$ are constants
    such that $0 \leq \calU(f) \leq 1$ ($\forall f$).
\end{definition}""",
    "tab:generalized-performance-metrics": r"""\begin{table*}[t]
    \centering
    \caption{
        Examples of the linear-fractional performance metrics.
        $\beta > 0$ is a trade-off parameter for the F${}_\beta$-measure,
        while $\alpha \geq 0$ is for the Gower-Legendre index.
    }
    \label{tab:generalized-performance-metrics}
    \begin{tabular}{|c||c|c|c|} \hline
        \renewcommand{\arraystretch}{1.3}
        Metric & \shortstack{F$_\beta$-measure \\ \citep{Rijsbergen:1974}} & \shortstack{Jaccard index \\ \citep{Jaccard:1901}} & \shortstack{Gower-Legendre index \\ \citep{Gower:1986}}
        \\ \hline \hline
        \renewcommand{\arraystretch}{1.2}
        Definition &
        $\frac{(1 + \beta^2)\tp}{(1 + \beta^2)\tp + \beta^2\fn + \fp}$ &
        $\frac{\tp}{\tp + \fn + \fp}$ &
        $\frac{\tp + \tn}{\tp + \alpha(\fp + \fn) + \tn}$
        \\ \hline
        $(a_{0,+1}, a_{0,-1})$ &
        $(1 + \beta^2, 0)$ &
        $(1, 0)$ &
        $(1, -1)$
        \\
        $b_0$ &
        $0$ &
        $0$ &
        $1 - \pi$
        \\
        $(a_{1,+1}, a_{1,-1})$ &
        $(1, 1)$ &
        $(0, 1)$ &
        $(1 - \alpha, \alpha - 1)$
        \\
        $b_1$ &
        $\beta^2\pi$ &
        $\pi$ &
        $1 + (\alpha - 1)\pi$
        \\ \hline
    \end{tabular}
\end{table*}""",
    "lem:utility-lower-bound": r"""\begin{lemma}
    \label{lem:utility-lower-bound}
    For all $f$ and a surrogate loss $\phi: \R \to \R_{\geq 0}$ such that $\phi(t) \geq \ell(t)$ for all $t \in \R$,
    $\calU_\phi(f) \leq \calU(f)$.
\end{lemma}""",
    "fig:fisher-consistent-surrogate-loss": r"""\caption{
        An example of $\tau$-discrepant loss with $\tau > 0$:
        $\phi(t) = \log_2(1 + e^{-t})$ for $t \leq 0$ and $\phi(t) = \log_2(1 + e^{-\tau t})$ for $t > 0$.
    }""",
    "lem:quasi-concavity": r"""\begin{lemma}
    \label{lem:quasi-concavity}
    Let $\bar{\mathcal{F}} \doteq \{f \mid \hat\calU_\phi^\mathrm{n}(f) \geq 0\} \subset \calF$.
    If $\phi$ is convex,
    $\hat\calU_\phi$ in Eq.~\eqref{eq:empirical-utility} is quasi-concave over $\bar{\calF}$ and
    $\hat\calU_\phi^\mathrm{n}$ is concave over $\calF$.
\end{lemma}""",
    "lem:unbiased-gradient": r"""\begin{lemma}
    \label{lem:unbiased-gradient}
    Denote $\tilde{W}_{0,\phi}(f(x_i), y_i) = \tilde{W}_{0,\phi}(z_i)$ for simplicity.
    Define
    \begin{align}
        \hat\calV_\phi(f)
        \doteq
        \frac{1}{m(n - m)} \sum_{i=1}^m & \sum_{j=m+1}^{n} \left\{
            \tilde{W}_{1,\phi}(z_j) \nabla_f\tilde{W}_{0,\phi}(z_i)
        \right. \nonumber \\ & \quad \left.
            -
            \tilde{W}_{0,\phi}(z_i) \nabla_f\tilde{W}_{1,\phi}(z_j)
        \right\}
        \label{eq:gradient-estimator}
        .
    \end{align}
    Then, we have $\calV_\phi(f) = \E_\calS[\hat\calV_\phi(f)]$.
\end{lemma}""",
    "thm:f-measure-calibration": r"""\begin{theorem}[F${}_\beta$-calibration]
    \label{thm:f-measure-calibration}
    Assume that a surrogate loss $\phi: \R \to \R_{\geq 0}$ is differentiable almost everywhere, convex, and non-increasing,
    and that $(\calU_\phi^{\mathsf{F}_\beta})^* \geq \frac{(1 + \beta^2)\tau}{\beta^2 - \tau}$ and $\phi$ is $\tau$-discrepant for some constant $\tau \in (0, \beta^2)$.\footnote{Note that $(\calU_\phi^{\mathsf{F}_\beta})^*$ is non-negative and therefore such $\tau$ always exists. The non-negativity is discussed in App.~\ref{sec:supp:non-negativity-of-surrogate-utilities}.}
    Then, $\calU_\phi^{\mathsf{F}_\beta}$ is F${}_\beta$-calibrated.
\end{theorem}""",
    "thm:jaccard-calibration": r"""\begin{theorem}[Jaccard-calibration]
    \label{thm:jaccard-calibration}
    Assume that a surrogate loss $\phi: \R \to \R_{\geq 0}$ is differentiable almost everywhere, convex, and non-increasing,
    and that $(\calU_\phi^{\mathsf{Jac}})^* \geq \tau$ and $\phi$ is $\tau$-discrepant for some constant $\tau \in (0, 1)$.
    Then, $\calU_\phi^{\mathsf{Jac}}$ is Jaccard-calibrated.
\end{theorem}""",
    "lem:uniform-convergence": r"""\begin{lemma}[Uniform convergence]
    \label{lem:uniform-convergence}
    For simplicity, assume that $m = n / 2$.
    For $k = 0, 1$, let $c_k \doteq \sup_{\xi \in \R, y \in \calY}|W_{k,\phi}(\xi, y)| < +\infty$.
    Assume that $W_{k}(\cdot, y)$ for $y \in \calY$ are $\rho_k$-Lipschitz continuous for some $0 < \rho_k < \infty$,
    and that $\|x\| < c_\calX$ ($\forall x \in \calX$) and $\|\theta\| < c_\Theta$ ($\forall \theta \in \Theta$) for some $0 < c_\calX, c_\Theta < \infty$.
    Then,
    \begin{align}
        \sup_{\theta \in \Theta} \left\|\hat\calV_\phi(f_\theta) - \calV_\phi(f_\theta)\right\| = \mathcal{O}_p(n^{-\frac{1}{2}}),
        \label{eq:uniform-convergence}
    \end{align}
    where $\mathcal{O}_p$ denotes the order in probability.
\end{lemma}""",
    "lem:non-smooth-rademacher": r"""\begin{lemma}
    \label{lem:non-smooth-rademacher}
    Assume that $\phi$ is $\tau$-discrepant and can be decomposed as $\phi(m) = \phi_{+1}(m)\ind{m > 0} + \phi_{-1}(m)\ind{m \leq 0}$.
    For $k = 0, 1$, denote $\tilde{W}_{k,\phi}' \circ \calF \doteq \{ (x, y) \mapsto \tilde{W}_{k,\phi}'(f(x), y) \mid f \in \calF \}$.
    Then,
    \begin{align*}
        \mathfrak{R}_n(\tilde{W}_{k,\phi}' \circ \calF) \leq 2(\gamma_{+1} + \gamma_{-1}) \mathfrak{R}_n(\calF).
    \end{align*}
\end{lemma}""",
    "prop:bayes-optimal-set": r"""\begin{proposition}
    \label{prop:bayes-optimal-set}
    Given a linear-fractional utility $\calU$ in Eq.~\eqref{eq:generalized-metric},
    the Bayes optimal set $\calB$ for $\calU$ is
    \begin{align*}
        \calB = \{f \mid f(x)\{(\da_0 - \da_1\calU(f))\eta(x) - (a_{1,-1}\calU(f) - a_{0,-1})\} > 0 \; \forall x \in \calX\},
    \end{align*}
    where $\da_0 \doteq a_{0,+1} - a_{0,-1}$ and $\da_1 \doteq a_{1,+1} - a_{1,-1}$.
\end{proposition}""",
    "prop:accuracy-calibration": r"""\begin{proposition}[Accuracy-calibration]
    \label{prop:accuracy-calibration}
    Assume that a surrogate loss $\phi: \R \to \R_{\geq 0}$ is convex, differentiable almost everywhere,
    and $\phi'(0) < 0$.
    Then, $\UAcc_\phi$ is accuracy-calibrated.
\end{proposition}""",
    "thm:general-calibration": r"""\begin{theorem}[$\calU$-calibration in general case]
    \label{thm:general-calibration}
    Let $f^*$ be a measurable function that achieves $\calU_\phi(f^*) = \sup_f \calU_\phi(f) \doteq \calU_\phi^*$.
    Assume that a surrogate loss $\phi: \R \to \R_{\geq 0}$ is convex, non-increasing, and differentiable almost everywhere.
    On the true utility, we assume the following conditions.
    \begin{enumerate}
        \renewcommand{\labelenumi}{(\arabic{enumi}) }
        \item $\da_0 > 0$.
        \item $\da_1 \leq 0$.
        \item $a_{0,-1} \ne 0$ or $a_{1,-1} \ne 0$.
        \item $a_{1,-1} + a_{0,-1} \ne 0$.
        \item $a_{0,+1} a_{1,-1} + a_{0,-1} a_{1,+1} > 0$.
        \item If $a_{1,-1} > 0$, then $\calU(f^*) > -\frac{a_{0,-1}}{a_{1,-1}}$.
    \end{enumerate}
    Moreover, assume that there exists $\tau \in (0, 1)$ such that $\tau$ satisfies the following conditions.
    \begin{enumerate}
        \renewcommand{\labelenumi}{(\alph{enumi}) }
        \item $\phi$ is $\tau$-discrepant.
        \item $\calU_\phi^*$ satisfies
        \begin{align*}
            \tau \leq \frac{a_{0,+1} - a_{1,+1}}{a_{1,-1} + a_{0,-1}} \cdot \frac{-a_{0,-1} + a_{1,-1}\calU_\phi^*}{a_{0,+1} + a_{1,+1}\calU_\phi^*}
            .
        \end{align*}
        \label{enum:supp:tau:surrogate}
        \item $\calU_\phi^*$ and $\calU(f^*)$ satisfy
        \begin{align*}
            \tau \leq \frac{a_{0,-1} - a_{1,-1}\calU(f^*)}{a_{1,+1}\calU(f^*) - a_{0,+1}} \cdot \frac{a_{0,+1} + a_{1,+1}\calU_\phi^*}{-a_{0,-1} + a_{1,-1}\calU_\phi^*}
            .
        \end{align*}
        \label{enum:supp:tau:true}
    \end{enumerate}
    Then, the surrogate utility $\calU_\phi$ is $\calU$-calibrated.
\end{theorem}""",
    "sec:supp:non-negativity-of-surrogate-utilities": r"""Here, we briefly discuss that the optimal surrogate utilities are non-negative even though the numerator can be negative.
Let us focus on the F${}_\beta$ case:
\begin{align*}
    W_{0,\phi}(\xi, q) &= (1 + \beta^2)(1 - \phi(\xi))q, \\
    W_{1,\phi}(\xi, q) &= (1 + \phi(\xi))q + \phi(-\xi)(1 - q) + \beta^2 \pi, \\
    \calU_\phi(f) &= \frac{\E_XW_{0,\phi}(f(X), \eta(X))}{\E_XW_{1,\phi}(f(X), \eta(X))},
\end{align*}
and let $f^*$ and $\check{f}$ be suprema of $\calU_\phi$ and $\E_X[W_0(f(X), \eta(X))]$ in $f$ within all measurable functions, respectively.
Then,
\begin{align*}
    \calU_\phi(f^*)
    \geq \calU_\phi(\check{f})
    &= \frac{\sup_{f'}\E_XW_{0,\phi}(f'(X), \eta(X))}{\E_X[W_{1,\phi}(\check{f}(X), \eta(X))]}
    \\
    &\overset{(a)}{=} \frac{\E_X[H_{0,\phi}(\eta(X))]}{\E_X[W_{1,\phi}(\check{f}(X), \eta(X))]}
    \\
    &= \frac{(1 + \beta^2)\pi}{\E_X[W_{1,\phi}(\check{f}(X), \eta(X))]}
    \\
    & \geq 0,
\end{align*}
where $H_{0,\phi}(q) \doteq \sup_{\xi \in \R} W_{0,\phi}(\xi, q)$.
The equality~(a) holds under a certain regularity condition~\citep[Lemma~2.5]{Steinwart:2007}.
Hence, we confirm that the optimal value of $\calU_\phi$ is non-negative.

The same discussion holds for the Jaccard case.""",
    "fig:supp:jaccard-calibration": r"""\caption{$\frac{(\UJac_\phi)^*}{1 + (\UJac_\phi)^*}$ is monotonically increasing if $0 \leq (\UJac_\phi)^* \leq 1$.}""",
}
